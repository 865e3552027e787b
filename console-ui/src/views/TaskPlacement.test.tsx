// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Job } from '../api/types';
import { TaskPlacement, placementByStage } from './TaskPlacement';

const job = (tasks: Job['tasks']) => ({ name: 'bids', tasks }) as unknown as Job;

describe('TaskPlacement', () => {
  it('lists each stage with the workers of its subtasks, in subtask order', () => {
    const tasks = [
      { stageId: 1, subtask: 1, stage: 'per-auction', worker: 'worker-1' },
      { stageId: 0, subtask: 0, stage: 'bids', worker: 'worker-2' },
      { stageId: 1, subtask: 0, stage: 'per-auction', worker: 'worker-3' },
      { stageId: 0, subtask: 1, stage: 'bids', worker: 'worker-2' },
    ];
    expect(placementByStage(tasks)).toEqual([
      { stageId: 0, stage: 'bids', workers: ['worker-2'] },
      { stageId: 1, stage: 'per-auction', workers: ['worker-3', 'worker-1'] },
    ]);
    render(<TaskPlacement job={job(tasks)} />);
    const row = screen.getByTestId('placement-1');
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['per-auction', '2', 'worker-3, worker-1']);
  });

  it('says so when no task is deployed', () => {
    render(<TaskPlacement job={job(undefined)} />);
    expect(screen.getByText('No task is deployed.')).toBeTruthy();
  });
});
