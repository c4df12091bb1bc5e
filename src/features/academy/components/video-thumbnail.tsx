import { useState } from 'react';

/**
 * A video's thumbnail from the provider's image host. When there is none, or it cannot be loaded (offline,
 * removed video), a neutral play tile takes its place instead of the browser's broken-image icon.
 */
export function VideoThumbnail({ src, className }: { src: string | null; className: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src)
    return (
      <div className={`${className} academy-thumbnail-empty`} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="28" height="28">
          <path d="M8 5v14l11-7z" fill="currentColor" />
        </svg>
      </div>
    );
  return <img className={className} src={src} alt="" loading="lazy" onError={() => setFailedSrc(src)} />;
}
