import type { Job, JobEvent, JobSpec, ObservedState } from '../api/types';

export interface ParallelismBounds {
  initial: number;
  min: number;
  max: number;
}

/** The spec's parallelism as bounds, with the contract's defaults (absent: 1; a number pins it). */
export function parallelismBounds(spec: JobSpec): ParallelismBounds {
  const p = spec.parallelism;
  if (p === undefined || p === null) return { initial: 1, min: 1, max: 1 };
  if (typeof p === 'number') return { initial: p, min: p, max: p };
  const initial = p.initial ?? p.min ?? 1;
  return { initial, min: p.min ?? initial, max: p.max ?? initial };
}

/** "2 (1–8)", or "2 (pinned)" when min equals max, then the stages at their own ("; per-user 4"); "—" for no deployed task. */
export function describeParallelism(job: Job): string {
  const { min, max } = parallelismBounds(job.spec);
  const current = job.parallelism ?? '—';
  const own = Object.entries(job.stageParallelism ?? {}).map(([stage, p]) => `${stage} ${p}`);
  return (min === max ? `${current} (pinned)` : `${current} (${min}–${max})`) + (own.length ? `; ${own.join(', ')}` : '');
}

export const OBSERVED_STATES: readonly ObservedState[] = [
  'created',
  'deploying',
  'running',
  'rescaling',
  'updating',
  'recovering',
  'stopping',
  'stopped',
  'failed',
  'finished',
  'idle',
];

/** States in which a job has tasks that report metrics. */
export function hasTasks(state: ObservedState): boolean {
  return (
    state === 'running' || state === 'rescaling' || state === 'updating' || state === 'recovering' || state === 'deploying'
  );
}

export function canStop(job: Job): boolean {
  return job.desiredState === 'RUNNING' && job.observedState !== 'stopped' && job.observedState !== 'finished';
}

export function canResume(job: Job): boolean {
  return (
    job.desiredState === 'STOPPED' ||
    job.observedState === 'failed' ||
    job.observedState === 'finished' ||
    job.observedState === 'idle'
  );
}

/**
 * Why an idle job is idle and what wakes it: the message of its latest move to idle, or a general
 * sentence when the events do not have it (yet).
 */
export function idleReason(events: readonly JobEvent[] | null): string {
  let latest: JobEvent | undefined;
  for (const e of events ?? []) {
    if (e.to === 'idle' && (latest === undefined || e.sequence > latest.sequence)) {
      latest = e;
    }
  }
  return latest?.message ?? 'Scaled to zero: its sources read nothing for its idleAfter. It holds no worker and resumes from its latest checkpoint as soon as its sources have new input.';
}

export function canRescale(job: Job): boolean {
  return job.observedState === 'running' && job.desiredState === 'RUNNING';
}

export const canSavepoint = canRescale;
