/** Routes of the Usuarios section. */
export const userPaths = {
  list: '/private/users',
  newUser: '/private/users/new-user',
  updatePassword: (uid: string) => `/private/users/update-password/${uid}`,
};
