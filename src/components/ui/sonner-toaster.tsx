import { Toaster as Sonner } from 'sonner';

/** One toast region for the whole app; colours come from the design tokens in styles.css. */
export default function SonnerToaster() {
  return (
    <Sonner
      position="bottom-right"
      closeButton
      duration={4000}
      toastOptions={{ classNames: { toast: 'toast', success: 'toast-success', error: 'toast-error' } }}
      containerAriaLabel="Notificaciones"
    />
  );
}
