import { useCallback } from 'react';
import { useApi } from '../api/context';
import type { Job, JobMetrics } from '../api/types';
import { Banner } from '../components/Banner';
import { useNow, usePoll } from '../lib/hooks';
import { hasTasks } from '../lib/jobs';
import { JobsTable } from './JobsTable';

interface JobsPage {
  jobs: Job[];
  metrics: Record<string, JobMetrics>;
}

export function JobsView({ project }: { project: string }) {
  const api = useApi();
  const load = useCallback(async (): Promise<JobsPage> => {
    const jobs = await api.listJobs(project);
    const live = jobs.filter((j) => hasTasks(j.observedState));
    const results = await Promise.allSettled(live.map((j) => api.getMetrics(project, j.name)));
    const metrics: Record<string, JobMetrics> = {};
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') metrics[live[i]!.name] = r.value;
    });
    return { jobs, metrics };
  }, [api, project]);
  const page = usePoll(load, 3000, `jobs/${project}`);
  const now = useNow();

  return (
    <div className="page">
      <div className="page-head">
        <h1>Jobs</h1>
        <span className="muted">project {project}</span>
      </div>
      {page.error && (
        <Banner onRetry={page.refresh}>
          {page.error}
          {page.data && ' The table shows the last figures received.'}
        </Banner>
      )}
      {page.data ? (
        <JobsTable project={project} jobs={page.data.jobs} metrics={page.data.metrics} now={now} />
      ) : (
        page.loading && <p className="muted">Loading jobs…</p>
      )}
    </div>
  );
}
