import type { ReactNode } from 'react';

/** An error or notice that says what happened and, where it can, what to do. */
export function Banner({
  tone = 'error',
  title,
  children,
  onRetry,
  onDismiss,
}: {
  tone?: 'error' | 'info' | 'ok' | 'warn';
  title?: string;
  children: ReactNode;
  onRetry?: () => void;
  onDismiss?: () => void;
}) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="banner-body">
        {title && <strong>{title} </strong>}
        {children}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      )}
      {onDismiss && (
        <button type="button" className="btn btn-small btn-ghost" aria-label="Dismiss" onClick={onDismiss}>
          ✕
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}
