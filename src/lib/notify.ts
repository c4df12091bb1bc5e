import { toast } from 'sonner';
import { spanishError } from './errors.ts';

/**
 * Feedback after every action (a toast, announced politely to screen readers by sonner). Mutation hooks call
 * these from onSuccess/onError so screens never forget one.
 */
export const notify = {
  success: (message: string) => toast.success(message),
  error: (error: unknown, fallback?: string) => {
    console.error(error);
    return toast.error(spanishError(error, fallback));
  },
  info: (message: string) => toast(message),
};
