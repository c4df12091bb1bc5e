import { useEffect, useState } from 'react';
import { notify } from '../../../lib/notify.ts';
import { publicCollectionUrl } from '../lib/public-link.ts';

const COPIED_FOR_MS = 1000;

/**
 * The collection's shareable link with a copy button. While the collection is private the link is shown
 * greyed with a hint, because visitors would get 'no disponible'.
 */
export function PublicLink({ id, isPublic, name }: { id: string; isPublic: boolean; name: string }) {
  const url = publicCollectionUrl(id);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch (error) {
      notify.error(error, 'No se pudo copiar el enlace');
    }
  };

  return (
    <div className={isPublic ? 'public-link' : 'public-link public-link-private'}>
      <a href={url} target="_blank" rel="noreferrer" className="public-link-url">
        {url}
      </a>
      <button
        type="button"
        className="button button-small"
        onClick={() => void copy()}
        aria-label={`Copiar enlace de ${name}`}
      >
        {copied ? 'Enlace copiado' : 'Copiar enlace'}
      </button>
      {!isPublic && <span className="muted public-link-hint">Privada: el enlace no se abre hasta hacerla pública</span>}
    </div>
  );
}
