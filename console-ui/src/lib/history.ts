import type { Job, JobMetrics } from '../api/types';

/** One observation of a job, taken by the console's poll. Absent figures are null (gaps). */
export interface Sample {
  /** Epoch milliseconds of the browser's clock when the poll completed. */
  t: number;
  recordsIn: number | null;
  recordsOut: number | null;
  watermarkLag: number | null;
  checkpointDuration: number | null;
  checkpointSize: number | null;
  parallelism: number | null;
}

export type SeriesKey = Exclude<keyof Sample, 't'>;

export const HISTORY_WINDOW_MS = 5 * 60_000;

/** A sample from one poll of the job and its metrics; either may be missing. */
export function sampleOf(t: number, job: Job | null, metrics: JobMetrics | null): Sample {
  return {
    t,
    recordsIn: metrics?.recordsInPerSecond ?? null,
    recordsOut: metrics?.recordsOutPerSecond ?? null,
    watermarkLag: metrics?.watermarkLagMillis ?? null,
    checkpointDuration: metrics?.lastCheckpointDurationMillis ?? job?.lastCheckpoint?.durationMillis ?? null,
    checkpointSize: metrics?.lastCheckpointSizeBytes ?? job?.lastCheckpoint?.sizeBytes ?? null,
    parallelism: job?.parallelism ?? null,
  };
}

/**
 * The history with `sample` added, in time order, keeping only the samples within `windowMs` of
 * the newest one. Pure: returns a new array and leaves `history` as it was.
 */
export function appendSample(history: readonly Sample[], sample: Sample, windowMs = HISTORY_WINDOW_MS): Sample[] {
  const next = [...history];
  let at = next.length;
  while (at > 0 && next[at - 1]!.t > sample.t) at--;
  if (at > 0 && next[at - 1]!.t === sample.t) next[at - 1] = sample;
  else next.splice(at, 0, sample);
  const newest = next[next.length - 1]!.t;
  const firstKept = next.findIndex((s) => s.t >= newest - windowMs);
  return firstKept > 0 ? next.slice(firstKept) : next;
}

/** Columns for a chart: x in seconds (uPlot's unit), then one array per series. */
export function columns(history: readonly Sample[], keys: readonly SeriesKey[]): [number[], ...(number | null)[][]] {
  return [history.map((s) => s.t / 1000), ...keys.map((k) => history.map((s) => s[k]))];
}

/** The newest non-null value of a series. */
export function latest(history: readonly Sample[], key: SeriesKey): number | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const v = history[i]![key];
    if (v !== null) return v;
  }
  return null;
}
