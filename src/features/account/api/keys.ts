/** Query keys of the account feature, generic → specific. */
export const accountKeys = {
  all: ['account'] as const,
  factors: () => [...accountKeys.all, 'factors'] as const,
};
