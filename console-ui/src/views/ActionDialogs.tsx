import { useState } from 'react';
import { describeError } from '../api/client';
import type { RestorePolicy, Savepoint } from '../api/types';
import { Banner } from '../components/Banner';
import { ConfirmDialog, Modal } from '../components/Modal';
import { formatAge, formatBytes } from '../lib/format';
import type { ParallelismBounds } from '../lib/jobs';

/** Runs an action, keeping the dialog open with the server's answer when it fails. */
function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export function StopDialog({ onStop, onCancel }: { onStop: (savepoint: boolean) => Promise<void>; onCancel: () => void }) {
  const [savepoint, setSavepoint] = useState(true);
  const submit = useSubmit(onStop);
  return (
    <Modal
      title="Stop the job"
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={submit.busy} onClick={() => submit.run(savepoint)}>
            {savepoint ? 'Take savepoint and stop' : 'Stop without savepoint'}
          </button>
        </>
      }
    >
      {submit.error && <Banner>{submit.error}</Banner>}
      <label className="check">
        <input type="checkbox" checked={savepoint} onChange={(e) => setSavepoint(e.target.checked)} />
        <span>
          Take a savepoint first
          <span className="muted block">
            The job stops once the savepoint completed; resuming from “latest” continues from it.
          </span>
        </span>
      </label>
      {!savepoint && (
        <p className="muted">Without a savepoint, a later resume starts from the latest checkpoint, if there is one.</p>
      )}
    </Modal>
  );
}

/**
 * Resume from the latest snapshot, a chosen savepoint, or no state. Resuming with no state asks
 * for confirmation first, since the job's state is then lost.
 */
export function ResumeDialog({
  savepoints,
  onResume,
  onCancel,
}: {
  savepoints: readonly Savepoint[];
  onResume: (policy: RestorePolicy) => Promise<void>;
  onCancel: () => void;
}) {
  const usable = savepoints.filter((s) => s.status === 'completed');
  const [from, setFrom] = useState<RestorePolicy['from']>('latest');
  const [savepointId, setSavepointId] = useState(usable[0]?.id ?? '');
  const [confirming, setConfirming] = useState(false);
  const submit = useSubmit(onResume);
  const now = Date.now();

  const resume = () => {
    if (from === 'none') setConfirming(true);
    else void submit.run(from === 'savepoint' ? { from, savepointId } : { from });
  };

  if (confirming) {
    return (
      <ConfirmDialog
        title="Resume with no state?"
        confirmLabel="Resume with no state"
        danger
        busy={submit.busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void submit.run({ from: 'none' })}
      >
        {submit.error && <Banner>{submit.error}</Banner>}
        <p>
          <strong>State will be lost.</strong> The job starts from scratch: its windows, aggregates and source positions
          from checkpoints and savepoints are not restored, so results start over.
        </p>
        <p className="muted">Its savepoints stay listed; you can resume from one of them later.</p>
      </ConfirmDialog>
    );
  }

  return (
    <Modal
      title="Resume the job"
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={submit.busy || (from === 'savepoint' && !savepointId)}
            onClick={resume}
          >
            Resume
          </button>
        </>
      }
    >
      {submit.error && <Banner>{submit.error}</Banner>}
      <fieldset className="choices">
        <legend className="sr-only">Restore from</legend>
        <label className="check">
          <input type="radio" name="from" checked={from === 'latest'} onChange={() => setFrom('latest')} />
          <span>
            Latest state
            <span className="muted block">The newest checkpoint or savepoint, or none if there is none.</span>
          </span>
        </label>
        <label className="check">
          <input
            type="radio"
            name="from"
            checked={from === 'savepoint'}
            disabled={usable.length === 0}
            onChange={() => setFrom('savepoint')}
          />
          <span>
            A savepoint
            <span className="muted block">{usable.length === 0 ? 'The job has no completed savepoint.' : 'Choose which one:'}</span>
          </span>
        </label>
        {from === 'savepoint' && (
          <select aria-label="Savepoint" className="indent" value={savepointId} onChange={(e) => setSavepointId(e.target.value)}>
            {usable.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} — {formatAge(s.completedAt ?? s.triggeredAt, now)}, {formatBytes(s.sizeBytes)}, parallelism {s.parallelism ?? '?'}
              </option>
            ))}
          </select>
        )}
        <label className="check">
          <input type="radio" name="from" checked={from === 'none'} onChange={() => setFrom('none')} />
          <span>
            No state
            <span className="muted block">Start from scratch; the job’s state is lost.</span>
          </span>
        </label>
      </fieldset>
    </Modal>
  );
}

export function RescaleDialog({
  current,
  bounds,
  onRescale,
  onCancel,
}: {
  current: number | undefined;
  bounds: ParallelismBounds;
  onRescale: (parallelism: number) => Promise<void>;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(String(current ?? bounds.initial));
  const submit = useSubmit(onRescale);
  const n = Number(value);
  const valid = Number.isInteger(n) && n >= bounds.min && n <= bounds.max;
  return (
    <Modal
      title="Rescale the job"
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={!valid || submit.busy} onClick={() => submit.run(n)}>
            Rescale
          </button>
        </>
      }
    >
      {submit.error && <Banner>{submit.error}</Banner>}
      <label className="field">
        <span>Parallelism</span>
        <input type="number" min={bounds.min} max={bounds.max} step={1} value={value} onChange={(e) => setValue(e.target.value)} />
      </label>
      <p className="muted">
        Between {bounds.min} and {bounds.max}, the bounds of the spec. The job takes a checkpoint and redeploys; the
        autoscaler may move it again within the bounds.
        {bounds.min === bounds.max && ' Its spec pins the parallelism; edit the spec to change the bounds.'}
      </p>
    </Modal>
  );
}
