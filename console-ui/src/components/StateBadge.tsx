import type { DesiredState, ObservedState } from '../api/types';

const TONE: Record<ObservedState, string> = {
  created: 'neutral',
  deploying: 'info',
  running: 'ok',
  rescaling: 'info',
  updating: 'info',
  recovering: 'warn',
  stopping: 'warn',
  stopped: 'neutral',
  failed: 'bad',
  finished: 'done',
  idle: 'neutral',
};

/** The job's observed state as a coloured badge; notes a desired state it is still moving to. */
export function StateBadge({ state, desired }: { state: ObservedState; desired?: DesiredState }) {
  const settled =
    desired === undefined ||
    (desired === 'RUNNING' && state !== 'stopped' && state !== 'stopping') ||
    (desired === 'STOPPED' && (state === 'stopped' || state === 'failed' || state === 'finished'));
  return (
    <span className="state">
      <span className={`badge badge-${TONE[state]}`} data-state={state}>
        <span className="dot" aria-hidden="true" />
        {state}
      </span>
      {!settled && <span className="muted small"> → {desired!.toLowerCase()}</span>}
    </span>
  );
}
