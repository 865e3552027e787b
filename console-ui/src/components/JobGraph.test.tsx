// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stageLoads } from '../lib/graph';
import { clicksPlan, metrics, operatorMetrics } from '../test/fixtures';
import { JobGraph } from './JobGraph';

describe('JobGraph', () => {
  it('draws every stage coloured by its load, with the exchange between them', () => {
    const loads = stageLoads(
      clicksPlan,
      metrics({
        operators: [
          operatorMetrics('clicks', 0, 20, 700),
          { ...operatorMetrics('per-user', 1, 950, 0), stateSizeBytes: 3 * 1024 * 1024, lastCheckpointDurationMillis: 1500 },
        ],
      }),
    );
    render(<JobGraph plan={clicksPlan} loads={loads} />);
    expect(screen.getByTestId('stage-0').getAttribute('data-load')).toBe('backpressured');
    expect(screen.getByTestId('stage-0').textContent).not.toContain('state');
    expect(screen.getByTestId('stage-1').getAttribute('data-load')).toBe('busy');
    expect(screen.getByTestId('stage-1').textContent).toContain('busy 95% · state 3.0 MiB');
    expect(screen.getByTestId('stage-1').querySelector('title')?.textContent).toContain('· last checkpoint 1.5 s');
    expect(screen.getByTestId('stage-0').querySelector('title')?.textContent).not.toContain('checkpoint');
    expect(screen.getByText('hash [user]')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Execution graph with 2 stages' })).toBeTruthy();
  });

  it('leaves stages neutral in a plan preview', () => {
    render(<JobGraph plan={clicksPlan} />);
    expect(screen.getByTestId('stage-0').getAttribute('data-load')).toBe('unknown');
    expect(screen.queryByText('backpressured')).toBeNull();
  });
});
