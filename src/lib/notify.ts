import { createElement, type MouseEvent } from 'react';
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
  /**
   * A refusal written for this case, with what the person can do about it (a button): it stays until they
   * decide or close it.
   */
  refusal: (message: string, action?: { label: string; onClick: () => void }): void =>
    void loadToast().then((toast) =>
      toast.error(message, action ? { duration: Infinity, closeButton: true, action } : { duration: 10000 }),
    ),
  info: (message: string): void => void loadToast().then((toast) => toast(message)),
  /**
   * A success with a link to what it is about. A plain click follows it inside the app (`follow`, the
   * router's navigate: the toast region sits outside the router); ctrl/meta-click opens a new tab as links do.
   */
  successWithLink: (message: string, link: { label: string; href: string; follow: () => void }): void =>
    void loadToast().then((toast) =>
      toast.success(message, {
        duration: 8000,
        description: createElement(
          'a',
          {
            href: link.href,
            className: 'toast-link',
            onClick: (event: MouseEvent) => {
              if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              link.follow();
            },
          },
          link.label,
        ),
      }),
    ),
};
