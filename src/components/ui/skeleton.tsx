/** Placeholder blocks shown while a list loads, in the shape of what will appear. */
export function SkeletonList({ rows = 5, label = 'Cargando…' }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton-list" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}

export function SkeletonGrid({ count = 12, label = 'Cargando…' }: { count?: number; label?: string }) {
  return (
    <div className="skeleton-grid" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="skeleton skeleton-tile" aria-hidden="true" />
      ))}
    </div>
  );
}
