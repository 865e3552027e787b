import { describe, expect, it } from 'vitest';
import { clicksPlan, metrics, operatorMetrics } from '../test/fixtures';
import { layoutPlan, stageColour, stageLoads } from './graph';

describe('graph colouring', () => {
  it('takes each stage’s busiest operator', () => {
    const loads = stageLoads(
      clicksPlan,
      metrics({
        operators: [
          operatorMetrics('clicks', 0, 120, 0),
          operatorMetrics('slow-pages', 0, 300, 50),
          operatorMetrics('per-user', 1, 900, 0),
        ],
      }),
    );
    expect(loads.get(0)).toMatchObject({ busyMs: 300, backpressuredMs: 50, stateBytes: null, checkpointMillis: null });
    expect(loads.get(1)).toMatchObject({ busyMs: 900, backpressuredMs: 0 });
  });

  it('sums the keyed state of a stage’s operators', () => {
    const loads = stageLoads(
      clicksPlan,
      metrics({
        operators: [
          operatorMetrics('clicks', 0, 120, 0),
          { ...operatorMetrics('slow-pages', 0, 300, 50), stateSizeBytes: 1000, lastCheckpointDurationMillis: 40 },
          { ...operatorMetrics('per-user', 1, 900, 0), stateSizeBytes: 2048, lastCheckpointDurationMillis: 350 },
          { ...operatorMetrics('results', 1, 900, 0), stateSizeBytes: 1000, lastCheckpointDurationMillis: 340 },
        ],
      }),
    );
    expect(loads.get(0)?.stateBytes).toBe(1000);
    expect(loads.get(1)?.stateBytes).toBe(3048);
    expect(loads.get(0)?.checkpointMillis).toBe(40);
    expect(loads.get(1)?.checkpointMillis).toBe(350);
  });

  it('has no loads without metrics', () => {
    expect(stageLoads(clicksPlan, null).size).toBe(0);
    expect(stageColour(undefined).kind).toBe('unknown');
  });

  it('goes from pale blue when idle to red when busy', () => {
    const idle = stageColour({ busyMs: 0, backpressuredMs: 0, parallelism: 2 });
    const half = stageColour({ busyMs: 500, backpressuredMs: 0, parallelism: 2 });
    const full = stageColour({ busyMs: 1000, backpressuredMs: 0, parallelism: 2 });
    expect(idle).toMatchObject({ kind: 'idle', label: 'idle', fill: 'rgb(219 234 254)' });
    expect(half).toMatchObject({ kind: 'busy', label: 'busy 50%', fill: 'rgb(220 136 146)' });
    expect(full).toMatchObject({ fill: 'rgb(220 38 38)', text: '#ffffff' });
  });

  it('shows backpressure when it dominates', () => {
    const bp = stageColour({ busyMs: 100, backpressuredMs: 800, parallelism: 2 });
    expect(bp).toMatchObject({ kind: 'backpressured', label: 'backpressured 80%' });
    expect(bp.fill).toBe('rgb(117 65 159)');
    expect(stageColour({ busyMs: 900, backpressuredMs: 200, parallelism: 2 }).kind).toBe('busy');
    expect(stageColour({ busyMs: 0, backpressuredMs: 60, parallelism: 2 }).kind).toBe('idle');
  });
});

describe('graph layout', () => {
  it('lays stages out left to right with a routed edge', () => {
    const layout = layoutPlan(clicksPlan);
    const [first, second] = layout.stages;
    expect(first!.x + first!.width).toBeLessThan(second!.x);
    expect(layout.edges[0]!.points.length).toBeGreaterThanOrEqual(2);
    expect(layout.width).toBeGreaterThan(second!.x);
  });
});
