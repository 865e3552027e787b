import { useMemo } from 'react';
import type { ExecutionPlan } from '../api/types';
import { formatBytes, formatDuration } from '../lib/format';
import { layoutPlan, stageColour, type StageLoad } from '../lib/graph';

const KIND_LABEL: Record<string, string> = {
  source: 'source',
  transform: 'transform',
  'window-aggregate': 'window',
  join: 'join',
  'group-aggregate': 'group by',
  'top-n': 'top-n',
  sink: 'sink',
};

/**
 * The execution graph: stages of chained operators, left to right, each coloured by its busiest
 * operator's load, with its keyed state's size. Without `loads` (a plan preview) every stage is neutral.
 */
export function JobGraph({ plan, loads }: { plan: ExecutionPlan; loads?: Map<number, StageLoad> }) {
  const layout = useMemo(() => layoutPlan(plan), [plan]);
  return (
    <figure className="graph">
      <svg
        style={{ width: '100%', maxWidth: layout.width, height: 'auto' }}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="img"
        aria-label={`Execution graph with ${plan.stages.length} stages`}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#64748b" />
          </marker>
        </defs>
        {layout.edges.map(({ edge, points }, i) => {
          if (points.length === 0) return null;
          const d = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
          const mid = points[Math.floor(points.length / 2)]!;
          const label = edge.partitioning + (edge.keyFields.length ? ` [${edge.keyFields.join(', ')}]` : '');
          return (
            <g key={i} className="graph-edge">
              <path d={d} fill="none" stroke="#64748b" strokeWidth={1.5} markerEnd="url(#arrow)" />
              <text x={mid.x} y={mid.y - 7} textAnchor="middle" className="graph-edge-label">
                {edge.port ? `${edge.port}: ${label}` : label}
              </text>
            </g>
          );
        })}
        {layout.stages.map(({ stage, x, y, width, height }) => {
          const load = loads?.get(stage.id);
          const colour = loads ? stageColour(load) : stageColour(undefined);
          const parallelism = load?.parallelism ?? stage.parallelism;
          return (
            <g key={stage.id} transform={`translate(${x},${y})`} data-testid={`stage-${stage.id}`} data-load={colour.kind}>
              <title>
                {`Stage ${stage.id}: ${stage.name} — ${colour.label}` +
                  (load?.checkpointMillis != null ? ` · last checkpoint ${formatDuration(load.checkpointMillis)}` : '')}
              </title>
              <rect width={width} height={height} rx={8} fill={colour.fill} stroke="#94a3b8" />
              <text x={12} y={20} className="graph-stage-title" fill={colour.text}>
                {`Stage ${stage.id}`}
                <tspan className="graph-stage-par" dx={8}>{`× ${parallelism}`}</tspan>
              </text>
              {stage.operators.map((op, i) => (
                <text key={op.id} x={12} y={44 + i * 20} className="graph-op" fill={colour.text}>
                  {op.id}
                  <tspan className="graph-op-kind" dx={6}>{KIND_LABEL[op.kind] ?? op.kind}</tspan>
                </text>
              ))}
              <text x={12} y={height - 10} className="graph-load" fill={colour.text}>
                {loads
                  ? colour.label + (load?.stateBytes != null ? ` · state ${formatBytes(load.stateBytes)}` : '')
                  : stage.keyGroupRanges.length > 0
                    ? `${stage.keyGroupRanges.length} key-group ranges`
                    : `${parallelism} ${parallelism === 1 ? 'subtask' : 'subtasks'}`}
              </text>
            </g>
          );
        })}
      </svg>
      {loads && (
        <figcaption className="legend">
          <span><i style={{ background: stageColour({ busyMs: 0, backpressuredMs: 0, parallelism: null }).fill }} />idle</span>
          <span><i style={{ background: stageColour({ busyMs: 500, backpressuredMs: 0, parallelism: null }).fill }} />busy</span>
          <span><i style={{ background: stageColour({ busyMs: 1000, backpressuredMs: 0, parallelism: null }).fill }} />saturated</span>
          <span><i style={{ background: stageColour({ busyMs: 0, backpressuredMs: 700, parallelism: null }).fill }} />backpressured</span>
          <span><i style={{ background: stageColour(undefined).fill }} />no metrics</span>
        </figcaption>
      )}
    </figure>
  );
}
