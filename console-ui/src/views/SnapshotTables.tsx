import { useState } from 'react';
import { describeError } from '../api/client';
import type { Checkpoint, Savepoint } from '../api/types';
import { Banner, EmptyState } from '../components/Banner';
import { ConfirmDialog } from '../components/Modal';
import { formatAge, formatBytes, formatDuration, formatTime } from '../lib/format';

const STATUS_TONE = { 'in-progress': 'info', completed: 'ok', failed: 'bad' } as const;

/**
 * The job's retained checkpoints and its savepoints, newest first. With `onDeleteSavepoint`, each
 * savepoint has a delete button that asks for confirmation and shows why the server refused.
 */
export function SnapshotTables({
  data,
  error,
  now,
  onDeleteSavepoint,
}: {
  data: { checkpoints: Checkpoint[]; savepoints: Savepoint[] } | null;
  error: string | null;
  now: number;
  onDeleteSavepoint?: (id: string) => Promise<void>;
}) {
  const [deleting, setDeleting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const confirmDelete = async () => {
    if (!deleting || !onDeleteSavepoint) return;
    setBusy(true);
    try {
      await onDeleteSavepoint(deleting);
      setDeleteError(null);
    } catch (e) {
      setDeleteError(describeError(e));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };
  if (error && !data) return <Banner>{error}</Banner>;
  if (!data) return <p className="muted">Loading checkpoints and savepoints…</p>;
  return (
    <div className="stack">
      <section className="card">
        <header className="card-head">
          <h2>Savepoints</h2>
        </header>
        {deleteError && (
          <Banner onDismiss={() => setDeleteError(null)}>{deleteError}</Banner>
        )}
        {deleting && (
          <ConfirmDialog
            title={`Delete savepoint ${deleting}?`}
            confirmLabel="Delete savepoint"
            danger
            busy={busy}
            onConfirm={confirmDelete}
            onCancel={() => setDeleting(null)}
          >
            <p>Its directory and every state file in it are deleted. This cannot be undone.</p>
          </ConfirmDialog>
        )}
        {data.savepoints.length === 0 ? (
          <EmptyState title="No savepoints.">Trigger one, or stop the job with a savepoint.</EmptyState>
        ) : (
          <table className="table" aria-label="Savepoints">
            <thead>
              <tr>
                <th>Id</th>
                <th>Status</th>
                <th>Trigger</th>
                <th>Taken</th>
                <th className="num">Duration</th>
                <th className="num" title="The longest a task held its barrier waiting for its other inputs">Alignment</th>
                <th className="num" title="The keyed state it holds">Size</th>
                <th className="num" title="Bytes written for it: new state, timers and metadata (copies of earlier files not counted)">Uploaded</th>
                <th className="num">Parallelism</th>
                {onDeleteSavepoint && <th aria-label="Actions" />}
              </tr>
            </thead>
            <tbody>
              {data.savepoints.map((s) => (
                <tr key={s.id}>
                  <td className="mono">{s.id}</td>
                  <td>
                    <span className={`badge badge-${STATUS_TONE[s.status]}`}>{s.status}</span>
                    {s.failureReason && <span className="muted block small">{s.failureReason}</span>}
                  </td>
                  <td>{s.trigger ?? '—'}</td>
                  <td className="nowrap" title={timesTitle(s)}>{formatAge(s.triggeredAt, now)}</td>
                  <td className="num">{formatDuration(s.durationMillis)}</td>
                  <td className="num">{formatDuration(s.alignmentMillis)}</td>
                  <td className="num">{formatBytes(s.sizeBytes)}</td>
                  <td className="num">{formatBytes(s.uploadedBytes)}</td>
                  <td className="num">{s.parallelism ?? '—'}</td>
                  {onDeleteSavepoint && (
                    <td>
                      <button type="button" className="btn btn-small" aria-label={`Delete ${s.id}`} onClick={() => setDeleting(s.id)}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card">
        <header className="card-head">
          <h2>Checkpoints</h2>
        </header>
        {data.checkpoints.length === 0 ? (
          <EmptyState title="No checkpoints.">A job takes checkpoints when its spec sets checkpoints.interval.</EmptyState>
        ) : (
          <table className="table" aria-label="Checkpoints">
            <thead>
              <tr>
                <th className="num">Id</th>
                <th>Status</th>
                <th>Taken</th>
                <th className="num">Duration</th>
                <th className="num" title="The longest a task held its barrier waiting for its other inputs">Alignment</th>
                <th className="num" title="All keyed state the checkpoint references">Size</th>
                <th className="num" title="Keyed state written new for it; the rest is shared with earlier checkpoints">Incremental</th>
                <th className="num" title="Bytes written for it: new state, timers and metadata">Uploaded</th>
                <th className="num">Parallelism</th>
              </tr>
            </thead>
            <tbody>
              {data.checkpoints.map((c) => (
                <tr key={c.id}>
                  <td className="num">{c.id}</td>
                  <td>
                    <span className={`badge badge-${STATUS_TONE[c.status]}`}>{c.status}</span>
                    {c.failureReason && <span className="muted block small">{c.failureReason}</span>}
                  </td>
                  <td className="nowrap" title={timesTitle(c)}>{formatAge(c.triggeredAt, now)}</td>
                  <td className="num" data-testid="checkpoint-duration">{formatDuration(c.durationMillis)}</td>
                  <td className="num">{formatDuration(c.alignmentMillis)}</td>
                  <td className="num" data-testid="checkpoint-size">{formatBytes(c.sizeBytes)}</td>
                  <td className="num">{formatBytes(c.incrementalSizeBytes)}</td>
                  <td className="num">{formatBytes(c.uploadedBytes)}</td>
                  <td className="num">{c.parallelism ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** "triggered 2026-05-01 10:00:00, completed 2026-05-01 10:00:00.108" for a row's tooltip. */
function timesTitle(s: { triggeredAt: string; completedAt?: string }): string {
  const triggered = `triggered ${formatTime(s.triggeredAt, true)}`;
  return s.completedAt ? `${triggered}, completed ${formatTime(s.completedAt, true)}` : triggered;
}
