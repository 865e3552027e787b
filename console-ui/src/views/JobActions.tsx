import { useState } from 'react';
import { describeError } from '../api/client';
import { useApi } from '../api/context';
import type { Job, Savepoint } from '../api/types';
import { canRescale, canResume, canSavepoint, canStop, parallelismBounds } from '../lib/jobs';
import { formatRoute } from '../lib/route';
import { RescaleDialog, ResumeDialog, StopDialog } from './ActionDialogs';

type Open = 'stop' | 'resume' | 'rescale' | null;

/** The job's actions: stop, resume, rescale, trigger a savepoint, edit. */
export function JobActions({
  job,
  savepoints,
  onChanged,
  onNotice,
}: {
  job: Job;
  savepoints: readonly Savepoint[];
  onChanged: () => void;
  onNotice: (notice: { tone: 'ok' | 'error'; text: string }) => void;
}) {
  const api = useApi();
  const [open, setOpen] = useState<Open>(null);
  const [triggering, setTriggering] = useState(false);
  const { project, name } = job;

  const done = (text: string) => {
    setOpen(null);
    onNotice({ tone: 'ok', text });
    onChanged();
  };

  const triggerSavepoint = async () => {
    setTriggering(true);
    try {
      const sp = await api.triggerSavepoint(project, name);
      onNotice({ tone: 'ok', text: `Savepoint ${sp.id} triggered; it is listed under Checkpoints.` });
      onChanged();
    } catch (e) {
      onNotice({ tone: 'error', text: `The savepoint was not triggered: ${describeError(e)}` });
    } finally {
      setTriggering(false);
    }
  };

  return (
    <div className="actions">
      <a className="btn" href={formatRoute({ kind: 'edit', project, name })}>
        Edit spec
      </a>
      <button type="button" className="btn" disabled={!canSavepoint(job) || triggering} onClick={triggerSavepoint}>
        Trigger savepoint
      </button>
      <button type="button" className="btn" disabled={!canRescale(job)} onClick={() => setOpen('rescale')}>
        Rescale…
      </button>
      {canResume(job) ? (
        <button type="button" className="btn btn-primary" onClick={() => setOpen('resume')}>
          Resume…
        </button>
      ) : (
        <button type="button" className="btn btn-danger-outline" disabled={!canStop(job)} onClick={() => setOpen('stop')}>
          Stop…
        </button>
      )}
      {open === 'stop' && (
        <StopDialog
          onCancel={() => setOpen(null)}
          onStop={async (savepoint) => {
            await api.stop(project, name, savepoint);
            done(savepoint ? 'Stopping: the job stops once its savepoint completed.' : 'Stopping the job.');
          }}
        />
      )}
      {open === 'resume' && (
        <ResumeDialog
          savepoints={savepoints}
          onCancel={() => setOpen(null)}
          onResume={async (policy) => {
            await api.resume(project, name, policy);
            done(
              policy.from === 'none'
                ? 'Resuming with no state.'
                : policy.from === 'savepoint'
                  ? `Resuming from savepoint ${policy.savepointId}.`
                  : 'Resuming from the latest state.',
            );
          }}
        />
      )}
      {open === 'rescale' && (
        <RescaleDialog
          current={job.parallelism}
          bounds={parallelismBounds(job.spec)}
          onCancel={() => setOpen(null)}
          onRescale={async (parallelism) => {
            await api.rescale(project, name, parallelism);
            done(`Rescaling to parallelism ${parallelism}.`);
          }}
        />
      )}
    </div>
  );
}
