import { useConnectionLost } from '../../lib/connection-status.ts';

/**
 * 'Reconectando…' while the live connection is lost. Nothing on the screen is discarded meanwhile: forms keep
 * what was typed, and every list is refetched once the connection is back.
 */
export function ConnectionBanner() {
  const lost = useConnectionLost();
  return (
    <div role="status" aria-live="polite" className={lost ? 'connection-banner' : 'visually-hidden'}>
      {lost && (
        <>
          <span className="spinner spinner-small" aria-hidden="true" />
          Sin conexión con el servidor. Reconectando… Lo que has escrito no se pierde.
        </>
      )}
    </div>
  );
}
