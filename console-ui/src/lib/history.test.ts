import { describe, expect, it } from 'vitest';
import { job, metrics } from '../test/fixtures';
import { appendSample, columns, HISTORY_WINDOW_MS, latest, sampleOf, type Sample } from './history';

const at = (t: number, recordsIn: number | null = t): Sample => ({
  t,
  recordsIn,
  recordsOut: null,
  watermarkLag: null,
  checkpointDuration: null,
  checkpointSize: null,
  parallelism: null,
});

describe('metrics history', () => {
  it('keeps samples in time order', () => {
    let h: Sample[] = [];
    for (const t of [1000, 3000, 2000]) h = appendSample(h, at(t));
    expect(h.map((s) => s.t)).toEqual([1000, 2000, 3000]);
  });

  it('drops samples older than the window behind the newest', () => {
    let h: Sample[] = [];
    for (let t = 0; t <= 10 * 60_000; t += 2000) h = appendSample(h, at(t));
    const newest = 10 * 60_000;
    expect(h[0]!.t).toBe(newest - HISTORY_WINDOW_MS);
    expect(h[h.length - 1]!.t).toBe(newest);
    expect(h).toHaveLength(HISTORY_WINDOW_MS / 2000 + 1);
  });

  it('replaces a sample of the same instant and leaves the input untouched', () => {
    const before = [at(1000, 1)];
    const after = appendSample(before, at(1000, 2));
    expect(after).toEqual([at(1000, 2)]);
    expect(before).toEqual([at(1000, 1)]);
  });

  it('takes figures from the metrics and parallelism from the job, with gaps as null', () => {
    const s = sampleOf(5000, job({ name: 'a', parallelism: 3 }), metrics({ recordsInPerSecond: 42, lastCheckpointSizeBytes: 10 }));
    expect(s).toMatchObject({ t: 5000, recordsIn: 42, parallelism: 3, checkpointSize: 10 });
    expect(sampleOf(6000, job({ name: 'a', parallelism: undefined }), null)).toMatchObject({ recordsIn: null, parallelism: null });
  });

  it('gives chart columns in seconds and the latest non-null value', () => {
    const h = [at(1000, 5), at(2000, null)];
    expect(columns(h, ['recordsIn'])).toEqual([[1, 2], [5, null]]);
    expect(latest(h, 'recordsIn')).toBe(5);
    expect(latest([], 'recordsIn')).toBeNull();
  });
});
