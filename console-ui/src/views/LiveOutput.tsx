import { useEffect, useRef, useState } from 'react';
import { ApiError, describeError } from '../api/client';
import { useApi } from '../api/context';
import type { ExecutionPlan, Job, OutputRecord } from '../api/types';
import { Banner, EmptyState } from '../components/Banner';
import { bySink, keepNewest, recordOf, timeFields } from '../lib/output';
import { readSse } from '../lib/sse';
import { SinkTable } from './SinkTable';

type Status =
  | { kind: 'paused' }
  | { kind: 'connecting' }
  | { kind: 'live' }
  | { kind: 'retrying'; reason: string }
  | { kind: 'unavailable'; reason: string };

const RETRY_MS = 3000;
const FLUSH_MS = 250;

/**
 * The last records the job's sinks produced, streaming from the server (GET .../output): one table
 * per sink, each with the columns of its own records; window bounds and event times shown as
 * readable instants (the raw value in the cell's tooltip).
 */
export function LiveOutput({ job, plan }: { job: Job; plan: ExecutionPlan | null }) {
  const api = useApi();
  const [operator, setOperator] = useState('');
  const [paused, setPaused] = useState(false);
  const [records, setRecords] = useState<OutputRecord[]>([]);
  const [status, setStatus] = useState<Status>({ kind: 'connecting' });
  const pending = useRef<OutputRecord[]>([]);

  useEffect(() => {
    if (paused) {
      setStatus({ kind: 'paused' });
      return;
    }
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const flush = setInterval(() => {
      if (pending.current.length === 0) return;
      const incoming = pending.current;
      pending.current = [];
      setRecords((current) => keepNewest(current, incoming));
    }, FLUSH_MS);

    const connect = async () => {
      setStatus({ kind: 'connecting' });
      try {
        const response = await api.openOutput(job.project, job.name, operator || null, abort.signal);
        setStatus({ kind: 'live' });
        await readSse(
          response.body!,
          (event) => {
            const record = recordOf(event);
            if (record) pending.current.push(record);
          },
          abort.signal,
        );
        if (!abort.signal.aborted) scheduleRetry('The server closed the stream.');
      } catch (e) {
        if (abort.signal.aborted) return;
        if (e instanceof ApiError && (e.status === 404 || e.status === 403 || e.status === 405)) {
          setStatus({
            kind: 'unavailable',
            reason: e.status === 403 ? describeError(e) : 'This server does not offer live output for this job.',
          });
        } else {
          scheduleRetry(describeError(e));
        }
      }
    };
    const scheduleRetry = (reason: string) => {
      setStatus({ kind: 'retrying', reason });
      retry = setTimeout(() => void connect(), RETRY_MS);
    };
    void connect();
    return () => {
      abort.abort();
      clearTimeout(retry);
      clearInterval(flush);
    };
  }, [api, job.project, job.name, operator, paused]);

  const sinks = plan?.stages.flatMap((s) => s.operators).filter((op) => op.kind === 'sink') ?? [];
  const groups = bySink(records, sinks.map((op) => op.id));
  const times = timeFields(job.spec);

  return (
    <section className="card">
      <header className="card-head">
        <h2>Live output</h2>
        <StatusPill status={status} />
        <div className="card-tools">
          <label className="inline-field">
            <span className="muted small">From</span>
            <select aria-label="Operator" value={operator} onChange={(e) => { setOperator(e.target.value); setRecords([]); }}>
              <option value="">every sink</option>
              {sinks.map((op) => (
                <option key={op.id} value={op.id}>
                  {op.id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn btn-small" onClick={() => setPaused((p) => !p)}>
            {paused ? 'Resume stream' : 'Pause'}
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setRecords([])}>
            Clear
          </button>
        </div>
      </header>
      {status.kind === 'unavailable' && <Banner tone="warn">{status.reason}</Banner>}
      {status.kind === 'retrying' && (
        <Banner tone="warn">
          {status.reason} Reconnecting in {RETRY_MS / 1000} s.
        </Banner>
      )}
      {records.length === 0 ? (
        status.kind !== 'unavailable' && (
          <EmptyState title="No records yet.">
            {job.observedState === 'running'
              ? 'Records appear here as the job produces them.'
              : `The job is ${job.observedState}; records appear once it runs.`}
          </EmptyState>
        )
      ) : (
        <div className="stack output-tables">
          {groups.map((g) => (
            <SinkTable key={g.operatorId} output={g} times={times} titled={!operator || groups.length > 1} />
          ))}
        </div>
      )}
    </section>
  );
}

function StatusPill({ status }: { status: Status }) {
  const [tone, text] =
    status.kind === 'live'
      ? ['ok', 'live']
      : status.kind === 'connecting'
        ? ['info', 'connecting']
        : status.kind === 'paused'
          ? ['neutral', 'paused']
          : status.kind === 'retrying'
            ? ['warn', 'reconnecting']
            : ['neutral', 'unavailable'];
  return (
    <span className={`badge badge-${tone}`} data-testid="output-status">
      <span className="dot" aria-hidden="true" />
      {text}
    </span>
  );
}
