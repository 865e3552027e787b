import type { ExecutionPlan, Job, JobMetrics, OperatorMetrics } from '../api/types';

export function job(overrides: Partial<Job> & { name: string }): Job {
  return {
    project: 'default',
    version: 1,
    desiredState: 'RUNNING',
    restorePolicy: { from: 'latest' },
    observedState: 'running',
    parallelism: 2,
    maxParallelism: 128,
    createdAt: '2026-05-01T09:00:00Z',
    updatedAt: '2026-05-01T10:00:00Z',
    spec: {
      name: overrides.name,
      parallelism: { initial: 2, min: 1, max: 8 },
      sources: { bids: { type: 'nexmark' } },
      sinks: { out: { type: 'blackhole', input: 'bids' } },
    },
    ...overrides,
  };
}

export function operatorMetrics(operatorId: string, stageId: number, busy: number, backpressured: number): OperatorMetrics {
  return {
    operatorId,
    stageId,
    parallelism: 2,
    recordsInPerSecond: 100,
    recordsOutPerSecond: 100,
    busyTimeMsPerSecond: busy,
    backpressuredTimeMsPerSecond: backpressured,
  };
}

export function metrics(overrides: Partial<JobMetrics> = {}): JobMetrics {
  return {
    at: '2026-05-01T10:00:05Z',
    recordsInPerSecond: 1000,
    recordsOutPerSecond: 12.5,
    watermarkLagMillis: 2001,
    busyTimeMsPerSecond: 310,
    backpressuredTimeMsPerSecond: 0,
    restarts: 0,
    lateRecordsDropped: 0,
    malformedRecords: 0,
    operators: [],
    ...overrides,
  };
}

/** The contract's example plan of clicks-per-user: two stages joined by a hash exchange. */
export const clicksPlan: ExecutionPlan = {
  jobName: 'clicks-per-user',
  maxParallelism: 128,
  stateBackend: 'forst',
  stages: [
    {
      id: 0,
      name: 'clicks -> slow-pages -> bad',
      parallelism: 2,
      operators: [
        { id: 'clicks', kind: 'source', description: 'source clicks' },
        { id: 'slow-pages', kind: 'transform', description: 'transform slow-pages' },
        { id: 'bad', kind: 'sink', description: 'sink bad' },
      ],
      links: [
        { from: 'clicks', to: 'slow-pages' },
        { from: 'clicks', port: 'bad-clicks', to: 'bad' },
      ],
      keyGroupRanges: [
        { subtask: 0, start: 0, end: 64 },
        { subtask: 1, start: 64, end: 128 },
      ],
    },
    {
      id: 1,
      name: 'per-user -> results',
      parallelism: 2,
      operators: [
        { id: 'per-user', kind: 'window-aggregate', description: 'window per-user' },
        { id: 'results', kind: 'sink', description: 'sink results' },
      ],
      links: [{ from: 'per-user', to: 'results' }],
      keyGroupRanges: [
        { subtask: 0, start: 0, end: 64 },
        { subtask: 1, start: 64, end: 128 },
      ],
    },
  ],
  edges: [{ fromStage: 0, fromOperator: 'slow-pages', toStage: 1, toOperator: 'per-user', partitioning: 'hash', keyFields: ['user'] }],
};
