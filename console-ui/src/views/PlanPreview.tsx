import type { ExecutionPlan } from '../api/types';
import { JobGraph } from '../components/JobGraph';

const CHANGE_TONE = { create: 'ok', update: 'warn', none: 'neutral' } as const;

/** A dry run's execution plan: what applying would do, the graph, and each stage's operators. */
export function PlanPreview({ plan }: { plan: ExecutionPlan }) {
  return (
    <section className="card" data-testid="plan-preview">
      <header className="card-head">
        <h2>Execution plan</h2>
        {plan.change && (
          <span className={`badge badge-${CHANGE_TONE[plan.change.action]}`} data-testid="plan-change">
            {plan.change.action}
          </span>
        )}
      </header>
      {plan.change?.description && <p className="muted">{plan.change.description}</p>}
      <p className="muted small">
        {plan.stages.length} {plan.stages.length === 1 ? 'stage' : 'stages'} · {plan.maxParallelism} key groups · state in{' '}
        {plan.stateBackend}
      </p>
      <JobGraph plan={plan} />
      <table className="table table-dense" aria-label="Stages">
        <thead>
          <tr>
            <th className="num">Stage</th>
            <th className="num">Parallelism</th>
            <th>Operators</th>
          </tr>
        </thead>
        <tbody>
          {plan.stages.map((stage) => (
            <tr key={stage.id}>
              <td className="num">{stage.id}</td>
              <td className="num">{stage.parallelism}</td>
              <td>
                <ul className="plain">
                  {stage.operators.map((op) => (
                    <li key={op.id}>
                      <span className="mono">{op.id}</span> <span className="muted">{op.description}</span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
