import { stringify } from 'yaml';
import type { Job } from '../api/types';
import { LazyCodeEditor as CodeEditor } from '../components/LazyCodeEditor';
import { formatRoute } from '../lib/route';

/** The applied spec, read-only, as YAML; for a job applied as SQL, its SQL first and the spec it compiled to. */
export function SpecView({ job }: { job: Job }) {
  const text = stringify(job.spec, { lineWidth: 0 });
  const sql = job.sql ?? null;
  return (
    <>
      {sql !== null && (
        <section className="card">
          <header className="card-head">
            <h2>Applied SQL</h2>
            <a className="btn btn-small" href={formatRoute({ kind: 'edit', project: job.project, name: job.name })}>
              Edit
            </a>
          </header>
          <CodeEditor key={`${job.name}@${job.version}:sql`} initialValue={sql} readOnly label="Applied job SQL" language="sql" />
        </section>
      )}
      <section className="card">
        <header className="card-head">
          <h2>{sql !== null ? 'The spec it compiles to' : 'Applied spec'}</h2>
          {sql === null && (
            <a className="btn btn-small" href={formatRoute({ kind: 'edit', project: job.project, name: job.name })}>
              Edit
            </a>
          )}
        </header>
        <CodeEditor key={`${job.name}@${job.version}`} initialValue={text} readOnly label="Applied job spec" />
      </section>
    </>
  );
}
