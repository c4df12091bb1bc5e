import { Spinner } from '../../../components/ui/spinner.tsx';
import { texts, type Language } from '../lib/language.ts';

export function PublicLoading({ language }: { language: Language }) {
  return (
    <div className="public-loading">
      <Spinner label={texts[language].loading} />
    </div>
  );
}

/** A network or server failure: not the "no disponible" page, since retrying may work. */
export function PublicLoadError({ language, onRetry }: { language: Language; onRetry: () => void }) {
  const t = texts[language];
  return (
    <section className="public-unavailable" role="alert">
      <p>{t.loadError}</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t.retry}
      </button>
    </section>
  );
}
