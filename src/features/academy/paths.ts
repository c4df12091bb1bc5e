/** The video provider whose info the fetch step asks for; the fetch route ends in `fetch-` + its name. */
export const VIDEO_PROVIDER = 'youtube';

/** Every Academy route, relative to nothing: absolute paths for links and navigation. */
export const academyPaths = {
  videos: '/private/academy',
  fetchVideo: `/private/academy/fetch-${VIDEO_PROVIDER}`,
  newVideo: '/private/academy/new-video',
  editVideo: (videoId: string) => `/private/academy/edit-video/${videoId}`,
  categories: '/private/academy/categories',
  newCategory: '/private/academy/new-category',
  editCategory: (categoryId: string) => `/private/academy/edit-category/${categoryId}`,
  users: '/private/academy/users',
  editUser: (userId: string) => `/private/academy/edit-user/${userId}`,
} as const;
