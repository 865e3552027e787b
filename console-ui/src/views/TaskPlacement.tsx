import type { Job } from '../api/types';

type Task = NonNullable<Job['tasks']>[number];

/** Per stage, the workers its subtasks run on, in subtask order (a worker listed once per stage). */
export function placementByStage(tasks: readonly Task[]): { stageId: number; stage: string; workers: string[] }[] {
  const stages = new Map<number, { stage: string; tasks: Task[] }>();
  for (const t of tasks) {
    const s = stages.get(t.stageId) ?? { stage: t.stage ?? `stage ${t.stageId}`, tasks: [] };
    s.tasks.push(t);
    stages.set(t.stageId, s);
  }
  return [...stages.entries()]
    .sort(([a], [b]) => a - b)
    .map(([stageId, s]) => ({
      stageId,
      stage: s.stage,
      workers: [...new Set(s.tasks.sort((a, b) => a.subtask - b.subtask).map((t) => t.worker))],
    }));
}

/** Where the job's tasks run now: a line per stage with its subtasks' workers. */
export function TaskPlacement({ job }: { job: Job }) {
  const tasks = job.tasks ?? [];
  if (tasks.length === 0) {
    return <p className="muted small">No task is deployed.</p>;
  }
  return (
    <table className="table table-dense" aria-label="Where the tasks run">
      <thead>
        <tr>
          <th>Stage</th>
          <th>Subtasks</th>
          <th>Workers</th>
        </tr>
      </thead>
      <tbody>
        {placementByStage(tasks).map((s) => (
          <tr key={s.stageId} data-testid={`placement-${s.stageId}`}>
            <td>{s.stage}</td>
            <td className="num">{tasks.filter((t) => t.stageId === s.stageId).length}</td>
            <td>{s.workers.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
