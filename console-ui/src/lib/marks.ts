import type { JobEvent } from '../api/types';

/** A moment to mark on a chart, with what happened then. */
export interface ChartMark {
  /** Epoch milliseconds. */
  at: number;
  /** The short text next to the mark (`per-key 1 → 2`, or `1 → 2` for an older decision). */
  label: string;
  /** The whole event message, shown on hover. */
  detail: string;
}

// `autoscaler: per-key 1 → 2, src 2 → 3 (numbers)`; before stages had their own parallelism:
// `autoscaler: parallelism 1 → 2 (numbers)`
const AUTOSCALER = /^autoscaler: (?:parallelism )?([^()]*?\d+ → \d+) \(/;

/** The autoscaler's decisions among `events` since `sinceMs`, oldest first. */
export function autoscalerMarks(events: readonly JobEvent[] | null, sinceMs: number): ChartMark[] {
  const marks: ChartMark[] = [];
  for (const e of events ?? []) {
    const m = e.kind === 'rescaled' ? AUTOSCALER.exec(e.message) : null;
    const at = Date.parse(e.at);
    if (m && at >= sinceMs) {
      marks.push({ at, label: m[1] ?? '', detail: e.message });
    }
  }
  return marks.sort((a, b) => a.at - b.at);
}
