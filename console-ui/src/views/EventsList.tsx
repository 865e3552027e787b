import type { JobEvent } from '../api/types';
import { Banner, EmptyState } from '../components/Banner';
import { formatAge, formatTime } from '../lib/format';

const KIND_TONE: Partial<Record<JobEvent['kind'], string>> = {
  failed: 'bad',
  'checkpoint-failed': 'bad',
  'savepoint-failed': 'bad',
  'savepoint-completed': 'ok',
  rescaled: 'info',
};

/** The job's lifecycle events, newest first. */
export function EventsList({
  events,
  error,
  now,
  compact = false,
}: {
  events: readonly JobEvent[] | null;
  error: string | null;
  now: number;
  compact?: boolean;
}) {
  if (error && !events) return <Banner>{error}</Banner>;
  if (!events) return <p className="muted">Loading events…</p>;
  if (events.length === 0) return <EmptyState title="No events yet." />;
  return (
    <ol className={compact ? 'events events-compact' : 'events card'} aria-label="Events">
      {events.map((e) => (
        <li key={e.sequence} className="event">
          <time className="event-time num" dateTime={e.at} title={formatTime(e.at)}>
            {formatAge(e.at, now)}
          </time>
          <span className={`badge badge-${KIND_TONE[e.kind] ?? 'neutral'}`}>{e.kind}</span>
          <span className="event-text">
            {e.from && e.to && (
              <span className="muted">
                {e.from} → {e.to}:{' '}
              </span>
            )}
            {e.message}
            {e.failure && <span className="event-failure block">{e.failure.reason}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}
