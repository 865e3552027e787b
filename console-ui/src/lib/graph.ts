import dagre from '@dagrejs/dagre';
import type { ExecutionPlan, JobMetrics, PlanEdge, PlanStage } from '../api/types';

/**
 * A stage's load: its busiest operator's busy and backpressured milliseconds per second (0..1000),
 * the keyed state of its operators in the last checkpoint (absent when none has keyed state), and
 * how long that checkpoint took until the stage's last subtask acknowledged it.
 */
export interface StageLoad {
  busyMs: number;
  backpressuredMs: number;
  parallelism: number | null;
  stateBytes?: number | null;
  checkpointMillis?: number | null;
}

/** The load of every stage with metrics, keyed by stage id: the worst operator of the stage. */
export function stageLoads(plan: ExecutionPlan, metrics: JobMetrics | null): Map<number, StageLoad> {
  const loads = new Map<number, StageLoad>();
  if (!metrics) return loads;
  const stageOfOperator = new Map<string, number>();
  for (const stage of plan.stages) for (const op of stage.operators) stageOfOperator.set(op.id, stage.id);
  for (const op of metrics.operators) {
    const stageId = stageOfOperator.get(op.operatorId) ?? op.stageId;
    const prev = loads.get(stageId);
    const state = op.stateSizeBytes ?? null;
    const checkpoint = op.lastCheckpointDurationMillis ?? null;
    loads.set(stageId, {
      busyMs: Math.max(prev?.busyMs ?? 0, op.busyTimeMsPerSecond),
      backpressuredMs: Math.max(prev?.backpressuredMs ?? 0, op.backpressuredTimeMsPerSecond),
      parallelism: Math.max(prev?.parallelism ?? 0, op.parallelism) || null,
      stateBytes: state === null ? (prev?.stateBytes ?? null) : (prev?.stateBytes ?? 0) + state,
      checkpointMillis: checkpoint === null ? (prev?.checkpointMillis ?? null) : Math.max(prev?.checkpointMillis ?? 0, checkpoint),
    });
  }
  return loads;
}

export type LoadKind = 'unknown' | 'idle' | 'busy' | 'backpressured';

export interface StageColour {
  kind: LoadKind;
  fill: string;
  text: string;
  /** What the colour means, in words: "busy 31%". */
  label: string;
}

/** Backpressure counts when it is at least this share of a second (and more than busy time). */
const BACKPRESSURE_THRESHOLD_MS = 100;
const IDLE_THRESHOLD_MS = 50;

const IDLE_RGB: Rgb = [219, 234, 254];
const BUSY_RGB: Rgb = [220, 38, 38];
const CALM_BP_RGB: Rgb = [233, 213, 255];
const FULL_BP_RGB: Rgb = [88, 28, 135];

/**
 * The colour of a stage, in the spirit of Flink's job graph: pale blue when idle, reddening as it
 * gets busy, purple when backpressured (waiting on the stage after it), grey without metrics.
 */
export function stageColour(load: StageLoad | undefined): StageColour {
  if (!load) return { kind: 'unknown', fill: 'rgb(241 245 249)', text: '#334155', label: 'no metrics' };
  const busy = clamp01(load.busyMs / 1000);
  const bp = clamp01(load.backpressuredMs / 1000);
  if (load.backpressuredMs >= BACKPRESSURE_THRESHOLD_MS && load.backpressuredMs > load.busyMs) {
    return {
      kind: 'backpressured',
      fill: rgb(mix(CALM_BP_RGB, FULL_BP_RGB, bp)),
      text: bp > 0.45 ? '#ffffff' : '#1e1b4b',
      label: `backpressured ${Math.round(bp * 100)}%`,
    };
  }
  const idle = load.busyMs < IDLE_THRESHOLD_MS;
  return {
    kind: idle ? 'idle' : 'busy',
    fill: rgb(mix(IDLE_RGB, BUSY_RGB, busy)),
    text: busy > 0.6 ? '#ffffff' : '#0f172a',
    label: idle ? 'idle' : `busy ${Math.round(busy * 100)}%`,
  };
}

type Rgb = [number, number, number];

function mix(from: Rgb, to: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(from[i]! + (to[i]! - from[i]!) * t)) as Rgb;
}

function rgb([r, g, b]: Rgb): string {
  return `rgb(${r} ${g} ${b})`;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export interface LaidOutStage {
  stage: PlanStage;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutEdge {
  edge: PlanEdge;
  points: { x: number; y: number }[];
}

export interface GraphLayout {
  stages: LaidOutStage[];
  edges: LaidOutEdge[];
  width: number;
  height: number;
}

export const STAGE_WIDTH = 260;
const HEADER_HEIGHT = 30;
const OPERATOR_LINE = 20;
const FOOTER_HEIGHT = 28;

export function stageHeight(stage: PlanStage): number {
  return HEADER_HEIGHT + OPERATOR_LINE * stage.operators.length + FOOTER_HEIGHT;
}

/** Lays the plan's stages out left to right with dagre; x and y are the stages' top-left corners. */
export function layoutPlan(plan: ExecutionPlan): GraphLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 120, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const stage of plan.stages) {
    g.setNode(String(stage.id), { width: STAGE_WIDTH, height: stageHeight(stage) });
  }
  plan.edges.forEach((edge, i) => {
    g.setEdge(String(edge.fromStage), String(edge.toStage), {}, String(i));
  });
  dagre.layout(g);
  const stages = plan.stages.map((stage) => {
    const n = g.node(String(stage.id));
    return { stage, width: n.width, height: n.height, x: (n.x ?? 0) - n.width / 2, y: (n.y ?? 0) - n.height / 2 };
  });
  const edges = plan.edges.map((edge, i) => ({
    edge,
    points: g.edge({ v: String(edge.fromStage), w: String(edge.toStage), name: String(i) })?.points ?? [],
  }));
  const graph = g.graph();
  return { stages, edges, width: graph.width ?? 0, height: graph.height ?? 0 };
}
