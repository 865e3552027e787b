import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../api/types';
import { autoscalerMarks } from './marks';

const event = (at: string, kind: JobEvent['kind'], message: string) =>
  ({ sequence: 1, at, kind, message }) as JobEvent;

describe('autoscalerMarks', () => {
  it('marks the autoscaler decisions within the window, oldest first', () => {
    const events = [
      event('2026-12-03T10:05:00Z', 'rescaled', 'autoscaler: per-key 2 → 4, src 1 → 2 (per-key -> out: busy 0.95, true rate 10k/s, target 14k/s → 2 → 4; src: busy 0.9)'),
      event('2026-12-03T10:05:30Z', 'rescaled', 'autoscaler: the rescale (per-key 4 → 8) was not applied: quota'),
      event('2026-12-03T10:04:00Z', 'state-changed', 'rescaling from parallelism 1 to 2'),
      event('2026-12-03T10:03:00Z', 'rescaled', 'autoscaler: parallelism 1 → 2 (per-key: busy 1.00)'),
      event('2026-12-03T09:00:00Z', 'rescaled', 'autoscaler: parallelism 4 → 1 (before the window)'),
    ];
    const marks = autoscalerMarks(events, Date.parse('2026-12-03T10:00:00Z'));
    expect(marks.map((m) => m.label)).toEqual(['1 → 2', 'per-key 2 → 4, src 1 → 2']);
    expect(marks[1]?.detail).toContain('true rate 10k/s');
    expect(marks[0]?.at).toBe(Date.parse('2026-12-03T10:03:00Z'));
  });

  it('has nothing to mark without events', () => {
    expect(autoscalerMarks(null, 0)).toEqual([]);
  });
});
