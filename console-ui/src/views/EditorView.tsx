import { useEffect, useMemo, useState } from 'react';
import { stringify } from 'yaml';
import { ApiError, describeError } from '../api/client';
import { useApi } from '../api/context';
import type { ExecutionPlan, FieldError, Job, JobApply, JobSpec } from '../api/types';
import { Banner } from '../components/Banner';
import type { EditorDiagnostic, EditorLanguage } from '../components/CodeEditor';
import { LazyCodeEditor as CodeEditor } from '../components/LazyCodeEditor';
import { formatRoute, jobHref, navigate } from '../lib/route';
import { locateFieldErrors, yamlSyntaxErrors, type SpecError } from '../lib/specErrors';
import { locateSqlErrors } from '../lib/sqlErrors';
import { parseYaml } from '../lib/yamlPointer';
import { PlanPreview } from './PlanPreview';
import { NEW_JOB_TEMPLATE, NEW_SQL_TEMPLATE } from './templates';

export { NEW_JOB_TEMPLATE, NEW_SQL_TEMPLATE };

interface Problem {
  detail: string;
  fieldErrors: readonly FieldError[];
  action?: 'reload';
}

/**
 * Create (name null) or edit a job: a YAML spec or a SQL job, errors at their lines, plan
 * preview, apply. A job applied as SQL is edited as SQL; a new job may be written either way.
 */
export function EditorView({ project, name }: { project: string; name: string | null }) {
  const api = useApi();
  const [original, setOriginal] = useState<{ text: string; job: Job | null; language: EditorLanguage } | null>(
    name === null ? { text: NEW_JOB_TEMPLATE, job: null, language: 'yaml' } : null,
  );
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadCount, setLoadCount] = useState(0);

  useEffect(() => {
    if (name === null) return;
    let alive = true;
    api
      .getJob(project, name)
      .then((job) =>
        alive && setOriginal(job.sql !== undefined && job.sql !== null
          ? { text: job.sql, job, language: 'sql' }
          : { text: stringify(job.spec, { lineWidth: 0 }), job, language: 'yaml' }),
      )
      .catch((e) => alive && setLoadError(describeError(e)));
    return () => {
      alive = false;
    };
  }, [api, project, name, loadCount]);

  if (loadError) return <div className="page"><Banner onRetry={() => { setLoadError(null); setLoadCount((c) => c + 1); }}>{loadError}</Banner></div>;
  if (!original) return <div className="page"><p className="muted">Loading {name}…</p></div>;
  return (
    <JobEditor
      key={`${original.job?.version ?? 'new'}-${loadCount}-${original.language}`}
      project={project}
      job={original.job}
      initialText={original.text}
      language={original.language}
      onLanguage={original.job ? undefined : (language) =>
        setOriginal({ text: language === 'sql' ? NEW_SQL_TEMPLATE : NEW_JOB_TEMPLATE, job: null, language })}
      onReload={() => {
        setOriginal(null);
        setLoadCount((c) => c + 1);
      }}
    />
  );
}

/** What the editor sends: the body of an apply, and how to plan it; or null with the reason shown. */
interface Draft {
  body: JobApply;
  name: string | null;
  plan: () => Promise<ExecutionPlan>;
}

function JobEditor({
  project,
  job,
  initialText,
  language,
  onLanguage,
  onReload,
}: {
  project: string;
  job: Job | null;
  initialText: string;
  language: EditorLanguage;
  onLanguage?: (language: EditorLanguage) => void;
  onReload: () => void;
}) {
  const api = useApi();
  const [text, setText] = useState(initialText);
  const parsed = useMemo(() => (language === 'yaml' ? parseYaml(text) : null), [text, language]);
  const syntax = useMemo(() => (parsed ? yamlSyntaxErrors(parsed) : []), [parsed]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [plan, setPlan] = useState<{ plan: ExecutionPlan; text: string } | null>(null);
  const [busy, setBusy] = useState<'plan' | 'apply' | null>(null);
  const [jumpTo, setJumpTo] = useState<{ pos: number; seq: number } | null>(null);

  const fieldErrors = useMemo(
    () => (parsed ? locateFieldErrors(parsed, problem?.fieldErrors ?? []) : locateSqlErrors(text, problem?.fieldErrors ?? [])),
    [parsed, text, problem],
  );
  const errors: SpecError[] = [...syntax, ...fieldErrors];
  const diagnostics: EditorDiagnostic[] = useMemo(
    () => [...syntax, ...fieldErrors].filter((e) => e.line !== null).map((e) => ({ from: e.from, to: e.to, message: e.message, severity: 'error' })),
    [syntax, fieldErrors],
  );
  const planIsCurrent = plan !== null && plan.text === text;

  const draft = (): Draft | null => (language === 'sql' ? sqlDraft() : specDraft());

  const sqlDraft = (): Draft => ({
    body: { sql: text },
    name: job?.name ?? (planIsCurrent ? plan.plan.jobName : null),
    plan: () => api.planSql(project, text, job?.name),
  });

  const specDraft = (): Draft | null => {
    if (!parsed || syntax.length > 0) {
      setProblem({ detail: 'The YAML has syntax errors; fix the marked lines first.', fieldErrors: [] });
      return null;
    }
    const spec = parsed.doc.toJS() as unknown;
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
      setProblem({ detail: 'A job spec is a YAML mapping with name, sources, operators and sinks.', fieldErrors: [] });
      return null;
    }
    const specName = (spec as { name?: unknown }).name;
    const body = spec as JobSpec;
    if (job && specName !== job.name) {
      setProblem({
        detail: 'A job cannot be renamed.',
        fieldErrors: [{ pointer: '/spec/name', message: `must stay ${job.name}; create a new job for another name` }],
      });
      return null;
    }
    const name = typeof specName === 'string' && specName !== '' ? specName : null;
    return { body: { spec: body }, name, plan: () => api.plan(project, body) };
  };

  const check = async () => {
    const d = draft();
    if (!d) return;
    setBusy('plan');
    setProblem(null);
    try {
      setPlan({ plan: await d.plan(), text });
    } catch (e) {
      setPlan(null);
      setProblem(toProblem(e));
    } finally {
      setBusy(null);
    }
  };

  const apply = async () => {
    const d = draft();
    if (!d) return;
    if (d.name === null) {
      setProblem(language === 'sql'
        ? { detail: "The job needs a name: SET 'name' = 'my-job';", fieldErrors: [] }
        : { detail: 'The spec needs a name.', fieldErrors: [{ pointer: '/spec/name', message: 'is required' }] });
      return;
    }
    setBusy('apply');
    setProblem(null);
    try {
      const applied = await api.applyJob(project, d.name, d.body, job ? { ifMatch: job.version } : { createOnly: true });
      navigate({ kind: 'job', project, name: applied.name, tab: 'overview' });
    } catch (e) {
      setProblem(toProblem(e, job !== null));
    } finally {
      setBusy(null);
    }
  };

  const what = language === 'sql' ? 'SQL' : 'spec';
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
          {job ? `version ${job.version}; applying a changed ${what} to a running job rolls it out through a savepoint` : `in project ${project}`}
        </span>
      </div>
      {onLanguage && (
        <div className="tabs" role="tablist" aria-label="Write the job as">
          {(['yaml', 'sql'] as const).map((l) => (
            <button key={l} type="button" role="tab" aria-selected={language === l} className={language === l ? 'tab tab-active' : 'tab'}
              onClick={() => l !== language && onLanguage(l)}>
              {l === 'yaml' ? 'YAML spec' : 'SQL'}
            </button>
          ))}
        </div>
      )}
      {problem && (
        <Banner onRetry={problem.action === 'reload' ? onReload : undefined}>
          {/[.!?]$/.test(problem.detail) ? problem.detail : `${problem.detail}.`}
          {problem.fieldErrors.length > 0 && ' Each is marked at its line below; fix them and check again.'}
          {problem.action === 'reload' && ` Retry loads its current ${what}; your changes here are discarded.`}
        </Banner>
      )}
      <div className="editor-layout">
        <section className="card editor-card">
          <CodeEditor initialValue={initialText} onChange={setText} diagnostics={diagnostics} jumpTo={jumpTo}
            label={language === 'sql' ? 'Job SQL' : 'Job spec (YAML)'} language={language} />
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
