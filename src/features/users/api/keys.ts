export const staffUserKeys = {
  all: ['staff-users'] as const,
  list: () => [...staffUserKeys.all, 'list'] as const,
};
