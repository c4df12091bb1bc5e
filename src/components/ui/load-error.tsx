/**
 * A screen's data did not come (an error, or no answer within the request deadline): what failed, why in one
 * Spanish sentence when there is one worth showing, and 'Reintentar' to ask again, in place of its skeletons.
 */
export function LoadError({
  what = 'los datos',
  detail,
  onRetry,
  retrying = false,
}: {
  what?: string;
  detail?: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="form-error load-error">
      <p>
        No se pudieron cargar {what}.{' '}
        <button
          type="button"
          className="link-button link-button-inline"
          onClick={onRetry}
          disabled={retrying}
          aria-busy={retrying}
        >
          {retrying ? 'Reintentando…' : 'Reintentar'}
        </button>
      </p>
      {detail && <p className="muted">{detail}</p>}
    </div>
  );
}
