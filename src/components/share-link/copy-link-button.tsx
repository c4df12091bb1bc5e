import { useEffect, useState } from 'react';
import { notify } from '../../lib/notify.ts';

const COPIED_FOR_MS = 1500;

/** 'Copiar enlace': puts a link on the clipboard and says so for a moment. */
export function CopyLinkButton({ url, className, label }: { url: string; className?: string; label?: string }) {
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
    <button type="button" className={className ?? 'button'} aria-label={label} onClick={() => void copy()}>
      {copied ? 'Enlace copiado' : 'Copiar enlace'}
    </button>
  );
}
