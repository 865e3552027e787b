import { useState } from 'react';
import type { Job, JobMetrics, ObservedState } from '../api/types';
import { EmptyState } from '../components/Banner';
import { StateBadge } from '../components/StateBadge';
import { formatAge, formatDuration, formatRate, formatTime } from '../lib/format';
import { describeParallelism, hasTasks, OBSERVED_STATES } from '../lib/jobs';
import { formatRoute, jobHref } from '../lib/route';

export type StateFilter = ObservedState | 'all';

/** The project's jobs, with a filter by observed state and by name. */
export function JobsTable({
  project,
  jobs,
  metrics,
  now,
}: {
  project: string;
  jobs: readonly Job[];
  metrics: Readonly<Record<string, JobMetrics>>;
  now: number;
}) {
  const [filter, setFilter] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');

  const counts = new Map<ObservedState, number>();
  for (const job of jobs) counts.set(job.observedState, (counts.get(job.observedState) ?? 0) + 1);
  const states = OBSERVED_STATES.filter((s) => counts.has(s) || s === filter);
  const needle = search.trim().toLowerCase();
  const shown = jobs.filter(
    (j) => (filter === 'all' || j.observedState === filter) && (needle === '' || j.name.includes(needle)),
  );

  if (jobs.length === 0) {
    return (
      <EmptyState title={`No jobs in project ${project} yet.`}>
        <a className="btn btn-primary" href={formatRoute({ kind: 'new', project })}>
          Create a job
        </a>
      </EmptyState>
    );
  }

  return (
    <>
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Filter by state">
          <FilterButton label="All" count={jobs.length} active={filter === 'all'} onClick={() => setFilter('all')} />
          {states.map((s) => (
            <FilterButton key={s} label={s} count={counts.get(s) ?? 0} active={filter === s} onClick={() => setFilter(s)} />
          ))}
        </div>
        <input
          className="search"
          type="search"
          placeholder="Find a job by name"
          aria-label="Find a job by name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {shown.length === 0 ? (
        <EmptyState title={filter === 'all' ? `No job matches “${search}”.` : `No ${filter} jobs.`}>
          <button type="button" className="btn btn-small" onClick={() => { setFilter('all'); setSearch(''); }}>
            Show all jobs
          </button>
        </EmptyState>
      ) : (
        <table className="table" aria-label="Jobs">
          <thead>
            <tr>
              <th>Name</th>
              <th>State</th>
              <th className="num">Parallelism</th>
              <th className="num">Input rate</th>
              <th className="num">Watermark lag</th>
              <th className="num">Last checkpoint</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((job) => (
              <JobRow key={job.name} job={job} metrics={hasTasks(job.observedState) ? metrics[job.name] : undefined} now={now} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function FilterButton({ label, count, active, onClick }: { label: string; count: number; active: boolean; onClick: () => void }) {
  return (
    <button type="button" className={active ? 'seg seg-active' : 'seg'} aria-pressed={active} onClick={onClick}>
      {label} <span className="seg-count">{count}</span>
    </button>
  );
}

function JobRow({ job, metrics, now }: { job: Job; metrics: JobMetrics | undefined; now: number }) {
  const checkpoint = job.lastCheckpoint;
  const checkpointAt = checkpoint?.completedAt ?? checkpoint?.triggeredAt;
  return (
    <tr data-job={job.name}>
      <td>
        <a className="job-link" href={jobHref(job.project, job.name)}>
          {job.name}
        </a>
      </td>
      <td>
        <StateBadge state={job.observedState} desired={job.desiredState} />
      </td>
      <td className="num">{describeParallelism(job)}</td>
      <td className="num">{metrics ? `${formatRate(metrics.recordsInPerSecond)} /s` : '—'}</td>
      <td className="num">{metrics ? formatDuration(metrics.watermarkLagMillis) : '—'}</td>
      <td className="num" title={formatTime(checkpointAt)}>
        {checkpoint ? (
          <>
            {formatAge(checkpointAt, now)}
            {checkpoint.status === 'failed' && <span className="badge badge-bad badge-inline">failed</span>}
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
    </tr>
  );
}
