import { texts, type Language } from '../lib/language.ts';

/**
 * What a visitor sees for an unpublished, private, deleted or unknown id: the same page in every case, so a
 * link reveals nothing about whether the thing exists.
 */
export function NotAvailable({ language, kind }: { language: Language; kind: 'file' | 'collection' }) {
  const t = texts[language];
  return (
    <section className="public-unavailable" aria-labelledby="unavailable-title">
      <svg aria-hidden="true" viewBox="0 0 64 64" width="72" height="72" className="public-unavailable-icon">
        <circle cx="32" cy="32" r="28" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M22 22l20 20M42 22L22 42" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <h1 id="unavailable-title">{kind === 'file' ? t.fileUnavailable : t.collectionUnavailable}</h1>
      <p>{t.unavailableText}</p>
    </section>
  );
}
