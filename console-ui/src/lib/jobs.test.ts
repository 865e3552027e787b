import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../api/types';
import { canResume, describeParallelism, idleReason } from './jobs';

function event(sequence: number, to: JobEvent['to'], message: string): JobEvent {
  return { sequence, at: '2026-12-03T10:00:00Z', kind: 'state-changed', to, message };
}

describe('idleReason', () => {
  it('is the message of the latest move to idle', () => {
    const events = [
      event(3, 'idle', 'idle: scaled to zero after its sources read nothing for 12 min; it resumes'),
      event(5, 'running', 'run started'),
      event(9, 'idle', 'idle: scaled to zero after its sources read nothing for 45 s; it resumes'),
      event(7, 'stopping', 'its sources read nothing'),
    ];
    expect(idleReason(events)).toContain('45 s');
  });

  it('says what idle means when the events do not tell', () => {
    expect(idleReason(null)).toMatch(/resumes from its latest checkpoint as soon as its sources have new input/);
    expect(idleReason([event(1, 'running', 'run started')])).toMatch(/Scaled to zero/);
  });
});

describe('canResume', () => {
  it('offers to start an idle job now', () => {
    const job = { desiredState: 'RUNNING', observedState: 'idle' } as unknown as Parameters<typeof canResume>[0];
    expect(canResume(job)).toBe(true);
    expect(canResume({ ...job, observedState: 'running' })).toBe(false);
  });
});

describe('describeParallelism', () => {
  const job = (extra: object) =>
    ({ parallelism: 2, spec: { parallelism: { initial: 2, min: 1, max: 4 } }, ...extra }) as unknown as Parameters<
      typeof describeParallelism
    >[0];

  it('shows the bounds, and the stages that run at their own', () => {
    expect(describeParallelism(job({}))).toBe('2 (1–4)');
    expect(describeParallelism(job({ stageParallelism: { 'per-user': 4 } }))).toBe('2 (1–4); per-user 4');
  });
});
