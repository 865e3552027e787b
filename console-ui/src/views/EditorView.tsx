import { useEffect, useMemo, useState } from 'react';
import { stringify } from 'yaml';
import { ApiError, describeError } from '../api/client';
import { useApi } from '../api/context';
import type { ExecutionPlan, FieldError, Job, JobSpec } from '../api/types';
import { Banner } from '../components/Banner';
import { LazyYamlEditor as YamlEditor } from '../components/LazyYamlEditor';
import type { EditorDiagnostic } from '../components/YamlEditor';
import { formatRoute, jobHref, navigate } from '../lib/route';
import { locateFieldErrors, yamlSyntaxErrors, type SpecError } from '../lib/specErrors';
import { parseYaml } from '../lib/yamlPointer';
import { PlanPreview } from './PlanPreview';

export const NEW_JOB_TEMPLATE = `# A streaming job. "Check and preview" plans it; "Apply" creates it, running.
name: my-job
parallelism: {initial: 1, min: 1, max: 4}
checkpoints: {interval: 10s}
sources:
  bids:
    type: nexmark
    kind: bid
    maxRecordsPerSecond: 1000
    eventTime: {field: dateTime, maxOutOfOrderness: 1s}
operators:
  - id: per-auction
    input: bids
    keyBy: [auction]
    window: {type: tumbling, size: 10s}
    aggregate: {bids: "count(*)", top_price: "max(price)"}
sinks:
  out: {input: per-auction, type: blackhole}
`;

interface Problem {
  detail: string;
  fieldErrors: readonly FieldError[];
  action?: 'reload';
}

/** Create (name null) or edit a job: YAML, errors at their lines, plan preview, apply. */
export function EditorView({ project, name }: { project: string; name: string | null }) {
  const api = useApi();
  const [original, setOriginal] = useState<{ text: string; job: Job | null } | null>(
    name === null ? { text: NEW_JOB_TEMPLATE, job: null } : null,
  );
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadCount, setLoadCount] = useState(0);

  useEffect(() => {
    if (name === null) return;
    let alive = true;
    api
      .getJob(project, name)
      .then((job) => alive && setOriginal({ text: stringify(job.spec, { lineWidth: 0 }), job }))
      .catch((e) => alive && setLoadError(describeError(e)));
    return () => {
      alive = false;
    };
  }, [api, project, name, loadCount]);

  if (loadError) return <div className="page"><Banner onRetry={() => { setLoadError(null); setLoadCount((c) => c + 1); }}>{loadError}</Banner></div>;
  if (!original) return <div className="page"><p className="muted">Loading {name}…</p></div>;
  return (
    <SpecEditor
      key={`${original.job?.version ?? 'new'}-${loadCount}`}
      project={project}
      job={original.job}
      initialText={original.text}
      onReload={() => {
        setOriginal(null);
        setLoadCount((c) => c + 1);
      }}
    />
  );
}

function SpecEditor({
  project,
  job,
  initialText,
  onReload,
}: {
  project: string;
  job: Job | null;
  initialText: string;
  onReload: () => void;
}) {
  const api = useApi();
  const [text, setText] = useState(initialText);
  const parsed = useMemo(() => parseYaml(text), [text]);
  const syntax = useMemo(() => yamlSyntaxErrors(parsed), [parsed]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [plan, setPlan] = useState<{ plan: ExecutionPlan; text: string } | null>(null);
  const [busy, setBusy] = useState<'plan' | 'apply' | null>(null);
  const [jumpTo, setJumpTo] = useState<{ pos: number; seq: number } | null>(null);

  const fieldErrors = useMemo(() => locateFieldErrors(parsed, problem?.fieldErrors ?? []), [parsed, problem]);
  const errors: SpecError[] = [...syntax, ...fieldErrors];
  const diagnostics: EditorDiagnostic[] = useMemo(
    () => [...syntax, ...fieldErrors].filter((e) => e.line !== null).map((e) => ({ from: e.from, to: e.to, message: e.message, severity: 'error' })),
    [syntax, fieldErrors],
  );
  const planIsCurrent = plan !== null && plan.text === text;

  /** The spec to send, or null with the reason shown. */
  const specToSend = (): JobSpec | null => {
    if (syntax.length > 0) {
      setProblem({ detail: 'The YAML has syntax errors; fix the marked lines first.', fieldErrors: [] });
      return null;
    }
    const spec = parsed.doc.toJS() as unknown;
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
      setProblem({ detail: 'A job spec is a YAML mapping with name, sources, operators and sinks.', fieldErrors: [] });
      return null;
    }
    const specName = (spec as { name?: unknown }).name;
    if (job && specName !== job.name) {
      setProblem({
        detail: 'A job cannot be renamed.',
        fieldErrors: [{ pointer: '/spec/name', message: `must stay ${job.name}; create a new job for another name` }],
      });
      return null;
    }
    return spec as JobSpec;
  };

  const check = async () => {
    const spec = specToSend();
    if (!spec) return;
    setBusy('plan');
    setProblem(null);
    try {
      setPlan({ plan: await api.plan(project, spec), text });
    } catch (e) {
      setPlan(null);
      setProblem(toProblem(e));
    } finally {
      setBusy(null);
    }
  };

  const apply = async () => {
    const spec = specToSend();
    if (!spec) return;
    if (typeof spec.name !== 'string' || spec.name === '') {
      setProblem({ detail: 'The spec needs a name.', fieldErrors: [{ pointer: '/spec/name', message: 'is required' }] });
      return;
    }
    setBusy('apply');
    setProblem(null);
    try {
      const applied = await api.applyJob(project, spec.name, { spec }, job ? { ifMatch: job.version } : { createOnly: true });
      navigate({ kind: 'job', project, name: applied.name, tab: 'overview' });
    } catch (e) {
      setProblem(toProblem(e, job !== null));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="page">
      <nav className="crumbs">
        <a href={formatRoute({ kind: 'jobs', project })}>Jobs</a> /{' '}
        {job ? (
          <>
            <a href={jobHref(project, job.name)}>{job.name}</a> / <span>edit</span>
          </>
        ) : (
          <span>new job</span>
        )}
      </nav>
      <div className="page-head">
        <h1>{job ? `Edit ${job.name}` : 'New job'}</h1>
        <span className="muted">
          {job ? `version ${job.version}; applying a changed spec to a running job rolls it out through a savepoint` : `in project ${project}`}
        </span>
      </div>
      {problem && (
        <Banner onRetry={problem.action === 'reload' ? onReload : undefined}>
          {problem.detail}
          {problem.fieldErrors.length > 0 && ' Each is marked at its line below; fix them and check again.'}
          {problem.action === 'reload' && ' Retry loads its current spec; your changes here are discarded.'}
        </Banner>
      )}
      <div className="editor-layout">
        <section className="card editor-card">
          <YamlEditor initialValue={initialText} onChange={setText} diagnostics={diagnostics} jumpTo={jumpTo} label="Job spec (YAML)" />
          {errors.length > 0 && (
            <ul className="errors" aria-label="Spec errors">
              {errors.map((e, i) => (
                <li key={i}>
                  {e.line !== null ? (
                    <button type="button" className="linklike" onClick={() => setJumpTo({ pos: e.from, seq: Date.now() })}>
                      Line {e.line}
                    </button>
                  ) : (
                    <span className="mono">{e.pointer}</span>
                  )}{' '}
                  {e.message}
                </li>
              ))}
            </ul>
          )}
          <div className="editor-actions">
            <button type="button" className="btn" onClick={check} disabled={busy !== null}>
              {busy === 'plan' ? 'Checking…' : 'Check and preview plan'}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={apply}
              disabled={busy !== null || !planIsCurrent}
              title={planIsCurrent ? undefined : 'Preview the plan of this text first'}
            >
              {busy === 'apply' ? 'Applying…' : job ? 'Apply changes' : 'Create job'}
            </button>
            {!planIsCurrent && <span className="muted small">Preview the plan to apply{plan ? ' (the text changed since)' : ''}.</span>}
          </div>
        </section>
        <div className="editor-side">
          {plan ? (
            <div className={planIsCurrent ? '' : 'stale'}>
              <PlanPreview plan={plan.plan} />
            </div>
          ) : (
            <section className="card">
              <p className="muted">
                The execution plan appears here: its stages, their parallelism and how records move between them. Errors are
                marked at their lines.
              </p>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

function toProblem(error: unknown, editing = false): Problem {
  if (error instanceof ApiError) {
    if (error.status === 412) {
      return editing
        ? { detail: `The job changed since you opened it (${error.message}).`, fieldErrors: [], action: 'reload' }
        : { detail: 'A job of that name exists already; open it to edit it, or choose another name.', fieldErrors: [] };
    }
    return { detail: error.message, fieldErrors: error.fieldErrors };
  }
  return { detail: describeError(error), fieldErrors: [] };
}
