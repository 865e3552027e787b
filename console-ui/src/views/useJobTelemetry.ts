import { useCallback, useEffect, useState } from 'react';
import { ApiError, describeError } from '../api/client';
import { useApi } from '../api/context';
import type { Job, JobMetrics } from '../api/types';
import { usePoll } from '../lib/hooks';
import { appendSample, sampleOf, type Sample } from '../lib/history';
import { hasTasks } from '../lib/jobs';

export const TELEMETRY_INTERVAL_MS = 2000;

export interface JobTelemetry {
  job: Job | null;
  metrics: JobMetrics | null;
  /** The last five minutes of samples, oldest first, kept in the browser. */
  history: Sample[];
  error: string | null;
  notFound: boolean;
  refresh: () => void;
}

/** Polls the job and its metrics every two seconds and keeps their history. */
export function useJobTelemetry(project: string, name: string): JobTelemetry {
  const api = useApi();
  const [notFound, setNotFound] = useState(false);
  const load = useCallback(async () => {
    const [job, metrics] = await Promise.allSettled([api.getJob(project, name), api.getMetrics(project, name)]);
    if (job.status === 'rejected') {
      if (job.reason instanceof ApiError && job.reason.status === 404) setNotFound(true);
      throw job.reason;
    }
    setNotFound(false);
    const live = hasTasks(job.value.observedState);
    return {
      job: job.value,
      metrics: metrics.status === 'fulfilled' ? metrics.value : null,
      metricsError: metrics.status === 'rejected' && live ? describeError(metrics.reason) : null,
      at: Date.now(),
    };
  }, [api, project, name]);
  const poll = usePoll(load, TELEMETRY_INTERVAL_MS, `${project}/${name}`);
  const [history, setHistory] = useState<Sample[]>([]);

  useEffect(() => {
    const d = poll.data;
    if (d) setHistory((h) => appendSample(h, sampleOf(d.at, d.job, d.metrics)));
  }, [poll.data]);

  const error = poll.error ?? (poll.data?.metricsError ? `Metrics are unavailable: ${poll.data.metricsError}` : null);
  return {
    job: poll.data?.job ?? null,
    metrics: poll.data?.metrics ?? null,
    history,
    error,
    notFound,
    refresh: poll.refresh,
  };
}
