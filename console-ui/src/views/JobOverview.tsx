import { useMemo } from 'react';
import type { Job, JobEvent, JobMetrics } from '../api/types';
import { Banner } from '../components/Banner';
import { Chart } from '../components/Chart';
import { JobGraph } from '../components/JobGraph';
import { BYTE_INCRS, DURATION_INCRS } from '../lib/axis';
import { formatBytes, formatDuration, formatRate } from '../lib/format';
import { stageLoads } from '../lib/graph';
import { HISTORY_WINDOW_MS, type Sample } from '../lib/history';
import { autoscalerMarks } from '../lib/marks';
import { jobHref } from '../lib/route';
import { EventsList } from './EventsList';
import { TaskPlacement } from './TaskPlacement';
import type { PlanState } from './JobView';

const integer = (v: number) => String(Math.round(v));

export function JobOverview({
  job,
  plan,
  metrics,
  history,
  events,
  now,
}: {
  job: Job;
  plan: PlanState;
  metrics: JobMetrics | null;
  history: readonly Sample[];
  events: readonly JobEvent[] | null;
  now: number;
}) {
  const loads = useMemo(() => (plan.data ? stageLoads(plan.data, metrics) : undefined), [plan.data, metrics]);
  const decisions = useMemo(() => autoscalerMarks(events, now - HISTORY_WINDOW_MS), [events, now]);
  return (
    <div className="overview">
      <section className="card">
        <header className="card-head">
          <h2>Execution graph</h2>
          {metrics && <span className="muted small">coloured by busy and backpressured time, live</span>}
        </header>
        {plan.error && !plan.data && <Banner tone="warn">The execution graph is unavailable: {plan.error}</Banner>}
        {plan.data ? <JobGraph plan={plan.data} loads={loads} /> : !plan.error && <p className="muted">Planning…</p>}
      </section>
      <section className="card">
        <header className="card-head">
          <h2>Workers</h2>
          <span className="muted small">where each stage's subtasks run</span>
        </header>
        <TaskPlacement job={job} />
      </section>
      <div className="charts">
        <Chart
          title="Records per second"
          testId="chart-records"
          history={history}
          format={formatRate}
          series={[
            { key: 'recordsIn', label: 'in', color: '#2563eb' },
            { key: 'recordsOut', label: 'out', color: '#16a34a' },
          ]}
        />
        <Chart title="Watermark lag" testId="chart-watermark-lag" history={history} format={formatDuration} incrs={DURATION_INCRS} emptyMax={1000} series={[{ key: 'watermarkLag', label: 'lag', color: '#d97706' }]} />
        <Chart title="Checkpoint duration" testId="chart-checkpoint-duration" history={history} format={formatDuration} incrs={DURATION_INCRS} emptyMax={1000} series={[{ key: 'checkpointDuration', label: 'duration', color: '#7c3aed' }]} />
        <Chart title="Checkpoint size" testId="chart-checkpoint-size" history={history} format={formatBytes} incrs={BYTE_INCRS} emptyMax={1024} series={[{ key: 'checkpointSize', label: 'size', color: '#0891b2' }]} />
        <Chart title="Parallelism" testId="chart-parallelism" history={history} format={integer} integer marks={decisions} series={[{ key: 'parallelism', label: 'parallelism', color: '#475569' }]} />
      </div>
      <section className="card">
        <header className="card-head">
          <h2>Recent events</h2>
          <a className="small" href={jobHref(job.project, job.name, 'events')}>
            All events
          </a>
        </header>
        <EventsList events={events?.slice(0, 6) ?? null} error={null} now={now} compact />
      </section>
    </div>
  );
}
