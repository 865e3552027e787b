import { stringify } from 'yaml';
import type { Job } from '../api/types';
import { LazyYamlEditor as YamlEditor } from '../components/LazyYamlEditor';
import { formatRoute } from '../lib/route';

/** The applied spec, read-only, as YAML. */
export function SpecView({ job }: { job: Job }) {
  const text = stringify(job.spec, { lineWidth: 0 });
  return (
    <section className="card">
      <header className="card-head">
        <h2>Applied spec</h2>
        <a className="btn btn-small" href={formatRoute({ kind: 'edit', project: job.project, name: job.name })}>
          Edit
        </a>
      </header>
      <YamlEditor key={`${job.name}@${job.version}`} initialValue={text} readOnly label="Applied job spec" />
    </section>
  );
}
