export const operationsKeys = {
  all: ['operations-popup'] as const,
  popup: () => [...operationsKeys.all, 'popup'] as const,
};
