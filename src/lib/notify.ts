import { spanishError } from './errors.ts';

// sonner is not part of the first paint: it loads with the Toaster just after it, or with the first toast if
// that comes sooner. A toast raised before the Toaster subscribes is shown as soon as it does (sonner replays it).
const loadToast = () => import('sonner').then((module) => module.toast);

/**
 * Feedback after every action (a toast, announced politely to screen readers by sonner). Mutation hooks call
 * these from onSuccess/onError so screens never forget one.
 */
export const notify = {
  success: (message: string): void => void loadToast().then((toast) => toast.success(message)),
  error: (error: unknown, fallback?: string): void => {
    console.error(error);
    const message = spanishError(error, fallback);
    void loadToast().then((toast) => toast.error(message));
  },
  info: (message: string): void => void loadToast().then((toast) => toast(message)),
};
