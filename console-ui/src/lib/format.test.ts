import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatDuration, formatEpochMillis, formatRate, formatTime } from './format';

describe('format', () => {
  it('writes durations for people', () => {
    expect(formatDuration(350)).toBe('350 ms');
    expect(formatDuration(2001)).toBe('2.0 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(245_000)).toBe('4 min 5 s');
    expect(formatDuration(3 * 3600_000)).toBe('3 h');
    expect(formatDuration(undefined)).toBe('—');
  });

  it('writes ages relative to now', () => {
    const now = Date.parse('2026-05-01T10:00:12Z');
    expect(formatAge('2026-05-01T10:00:12Z', now)).toBe('just now');
    expect(formatAge('2026-05-01T10:00:00Z', now)).toBe('12 s ago');
    expect(formatAge('2026-05-01T09:50:00Z', now)).toBe('10 min ago');
    expect(formatAge(undefined, now)).toBe('—');
  });

  it('writes sizes and rates', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1048576)).toBe('1.0 MiB');
    expect(formatRate(12.5)).toBe('12.5');
    expect(formatRate(1000)).toBe('1,000');
    expect(formatRate(2_500_000)).toBe('2.5 M');
  });

  it('writes instants in local time, with milliseconds when asked or when they are not whole seconds', () => {
    const at = new Date(2026, 11, 2, 10, 0, 5, 108);
    expect(formatTime(at.toISOString())).toBe('2026-12-02 10:00:05');
    expect(formatTime(at.toISOString(), true)).toBe('2026-12-02 10:00:05.108');
    expect(formatEpochMillis(at.getTime())).toBe('2026-12-02 10:00:05.108');
    expect(formatEpochMillis(at.getTime() - 108)).toBe('2026-12-02 10:00:05');
    expect(formatTime(undefined)).toBe('—');
  });
});
