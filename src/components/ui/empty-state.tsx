import type { ReactNode } from 'react';

/** A designed "nothing here" state: what is empty, why, and what to do next. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <svg aria-hidden="true" viewBox="0 0 48 48" width="48" height="48" className="empty-state-icon">
        <rect x="6" y="10" width="36" height="28" rx="4" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <circle cx="17" cy="20" r="3.5" fill="currentColor" />
        <path d="M9 35l10-10 7 7 5-5 8 8" fill="none" stroke="currentColor" strokeWidth="2.5" />
      </svg>
      <p className="empty-state-title">{title}</p>
      {children && <div className="empty-state-text">{children}</div>}
      {action}
    </div>
  );
}
