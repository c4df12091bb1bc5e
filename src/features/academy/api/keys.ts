/** Query keys of the Academy, generic → specific; mutations invalidate the bare prefixes. */
export const academyKeys = {
  all: ['academy'] as const,
  videos: () => [...academyKeys.all, 'videos'] as const,
  video: (videoId: string) => [...academyKeys.videos(), videoId] as const,
  categories: () => [...academyKeys.all, 'categories'] as const,
  users: () => [...academyKeys.all, 'users'] as const,
  userList: (query: string) => [...academyKeys.users(), 'list', query] as const,
  user: (userId: string) => [...academyKeys.users(), 'detail', userId] as const,
};
