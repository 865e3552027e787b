import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client';
import { useApi } from '../api/context';
import type { ExecutionPlan, Job, JobFailure } from '../api/types';
import { Banner } from '../components/Banner';
import { StateBadge } from '../components/StateBadge';
import { formatAge, formatTime } from '../lib/format';
import { useNow, usePoll } from '../lib/hooks';
import { describeParallelism, idleReason } from '../lib/jobs';
import { formatRoute, jobHref, JOB_TABS, type JobTab } from '../lib/route';
import { EventsList } from './EventsList';
import { JobActions } from './JobActions';
import { JobOverview } from './JobOverview';
import { LiveOutput } from './LiveOutput';
import { SnapshotTables } from './SnapshotTables';
import { useJobTelemetry } from './useJobTelemetry';

const SpecView = lazy(() => import('./SpecView').then((m) => ({ default: m.SpecView })));

const TAB_LABEL: Record<JobTab, string> = {
  overview: 'Overview',
  checkpoints: 'Checkpoints',
  events: 'Events',
  output: 'Live output',
  spec: 'Spec',
};

export function JobView({ project, name, tab }: { project: string; name: string; tab: JobTab }) {
  const api = useApi();
  const telemetry = useJobTelemetry(project, name);
  const snapshots = usePoll(
    useCallback(async () => {
      const [checkpoints, savepoints] = await Promise.all([api.listCheckpoints(project, name), api.listSavepoints(project, name)]);
      return { checkpoints: checkpoints.items, savepoints: savepoints.items };
    }, [api, project, name]),
    5000,
    `${project}/${name}/snapshots`,
  );
  const events = usePoll(
    useCallback(async () => (await api.listEvents(project, name)).items, [api, project, name]),
    5000,
    `${project}/${name}/events`,
  );
  const plan = usePlan(telemetry.job);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const now = useNow();
  const job = telemetry.job;

  if (telemetry.notFound) {
    return (
      <div className="page">
        <Banner title="Job not found.">
          There is no job {name} in project {project}. <a href={formatRoute({ kind: 'jobs', project })}>Back to the jobs</a>.
        </Banner>
      </div>
    );
  }
  if (!job) {
    return (
      <div className="page">
        {telemetry.error ? <Banner onRetry={telemetry.refresh}>{telemetry.error}</Banner> : <p className="muted">Loading {name}…</p>}
      </div>
    );
  }

  const refreshAll = () => {
    telemetry.refresh();
    snapshots.refresh();
    events.refresh();
  };

  return (
    <div className="page">
      <nav className="crumbs">
        <a href={formatRoute({ kind: 'jobs', project })}>Jobs</a> / <span>{name}</span>
      </nav>
      <div className="job-head">
        <div>
          <h1>
            {name} <StateBadge state={job.observedState} desired={job.desiredState} />
          </h1>
          <p className="muted meta">
            <span>parallelism <span className="num">{describeParallelism(job)}</span></span>
            <span>max parallelism <span className="num">{job.maxParallelism}</span></span>
            <span>version <span className="num">{job.version}</span></span>
            <span title={formatTime(job.updatedAt)}>updated {formatAge(job.updatedAt, now)}</span>
          </p>
        </div>
        <JobActions job={job} savepoints={snapshots.data?.savepoints ?? []} onChanged={refreshAll} onNotice={setNotice} />
      </div>
      {notice && (
        <Banner tone={notice.tone} onDismiss={() => setNotice(null)}>
          {notice.text}
        </Banner>
      )}
      {telemetry.error && <Banner tone="warn" onRetry={telemetry.refresh}>{telemetry.error}</Banner>}
      {job.failure && <FailureBanner failure={job.failure} now={now} />}
      {job.observedState === 'idle' && (
        <Banner tone="info" title="Idle.">
          {idleReason(events.data)}
        </Banner>
      )}
      <nav className="tabs" role="tablist">
        {JOB_TABS.map((t) => (
          <a key={t} role="tab" aria-selected={t === tab} className={t === tab ? 'tab tab-active' : 'tab'} href={jobHref(project, name, t)}>
            {TAB_LABEL[t]}
          </a>
        ))}
      </nav>
      {tab === 'overview' && (
        <JobOverview job={job} plan={plan} metrics={telemetry.metrics} history={telemetry.history} events={events.data} now={now} />
      )}
      {tab === 'checkpoints' && (
        <SnapshotTables
          data={snapshots.data}
          error={snapshots.error}
          now={now}
          onDeleteSavepoint={async (id) => {
            await api.deleteSavepoint(project, name, id);
            setNotice({ tone: 'ok', text: `Savepoint ${id} deleted.` });
            snapshots.refresh();
          }}
        />
      )}
      {tab === 'events' && <EventsList events={events.data} error={events.error} now={now} />}
      {tab === 'output' && <LiveOutput job={job} plan={plan.data} />}
      {tab === 'spec' && (
        <Suspense fallback={<p className="muted">Loading the spec…</p>}>
          <SpecView job={job} />
        </Suspense>
      )}
    </div>
  );
}

export interface PlanState {
  data: ExecutionPlan | null;
  error: string | null;
}

/** The execution plan of the job's current spec, fetched again when the spec's version changes. */
function usePlan(job: Job | null): PlanState {
  const api = useApi();
  const [state, setState] = useState<PlanState>({ data: null, error: null });
  const jobRef = useRef(job);
  jobRef.current = job;
  const version = job?.version ?? null;
  useEffect(() => {
    const current = jobRef.current;
    if (!current) return;
    let alive = true;
    api
      .plan(current.project, current.spec)
      .then((data) => alive && setState({ data, error: null }))
      .catch((e) => alive && setState((s) => ({ data: s.data, error: describeError(e) })));
    return () => {
      alive = false;
    };
  }, [api, version]);
  return state;
}

function FailureBanner({ failure, now }: { failure: JobFailure; now: number }) {
  const where = [failure.operatorId && `operator ${failure.operatorId}`, failure.subtask !== undefined && `subtask ${failure.subtask}`]
    .filter(Boolean)
    .join(', ');
  const advice =
    failure.domain === 'USER'
      ? 'Fix the spec or the input data, then resume.'
      : failure.retryable
        ? 'Retrying may help; Tributary restarts the job by itself while the cause is temporary.'
        : failure.domain === 'EXTERNAL'
          ? 'Check the external system (Kafka, object store), then resume.'
          : 'This is a fault in Tributary; check the server log and report it.';
  return (
    <Banner title="The job failed:">
      <span data-testid="failure-reason">{failure.reason}</span>
      <span className="muted block">
        {where && `${where} · `}
        {failure.domain.toLowerCase()} error · {formatAge(failure.at, now)}. {advice}
      </span>
    </Banner>
  );
}
