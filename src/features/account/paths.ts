/** The account screens' paths: the two public steps of a password reset, and 'Mi cuenta' inside the shell. */
export const accountPaths = {
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  account: '/private/account',
} as const;

/** Where the links in recovery and invitation mails send the browser (must be in additional_redirect_urls). */
export const resetPasswordUrl = () => `${window.location.origin}${accountPaths.resetPassword}`;
