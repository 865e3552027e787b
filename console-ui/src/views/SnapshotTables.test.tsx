// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Checkpoint, Savepoint } from '../api/types';
import { SnapshotTables } from './SnapshotTables';

const savepoints: Savepoint[] = [
  { id: 'sp-7', status: 'completed', trigger: 'stop', triggeredAt: '2026-05-01T10:00:00Z', parallelism: 2 },
  { id: 'sp-3', status: 'completed', triggeredAt: '2026-05-01T09:00:00Z' },
];

const checkpoints: Checkpoint[] = [
  {
    id: 43,
    status: 'completed',
    triggeredAt: '2026-05-01T10:59:50Z',
    completedAt: '2026-05-01T10:59:50.108Z',
    durationMillis: 108,
    alignmentMillis: 2,
    sizeBytes: 163_840,
    incrementalSizeBytes: 20_480,
    uploadedBytes: 24_117,
    parallelism: 2,
  },
  { id: 12, status: 'completed', triggeredAt: '2026-05-01T09:30:00Z', completedAt: '2026-05-01T09:30:00Z' },
];

function renderTables(onDeleteSavepoint?: (id: string) => Promise<void>) {
  render(
    <SnapshotTables
      data={{ checkpoints, savepoints }}
      error={null}
      now={Date.parse('2026-05-01T11:00:00Z')}
      onDeleteSavepoint={onDeleteSavepoint}
    />,
  );
  return userEvent.setup();
}

describe('SnapshotTables', () => {
  it('deletes a savepoint only once the deletion is confirmed', async () => {
    const onDelete = vi.fn<(id: string) => Promise<void>>(async () => undefined);
    const user = renderTables(onDelete);

    await user.click(screen.getByRole('button', { name: 'Delete sp-3' }));
    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Delete savepoint sp-3?' }).textContent).toContain('cannot be undone');

    await user.click(screen.getByRole('button', { name: 'Delete savepoint' }));
    expect(onDelete).toHaveBeenCalledExactlyOnceWith('sp-3');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    const onDelete = vi.fn<(id: string) => Promise<void>>(async () => undefined);
    const user = renderTables(onDelete);

    await user.click(screen.getByRole('button', { name: 'Delete sp-7' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows why the server refused the deletion', async () => {
    const detail = "job 'trickle' would restore savepoint 7 when it is resumed (its restore policy names it)";
    const onDelete = vi.fn(async () => {
      throw new ApiError(409, { type: 'urn:tributary:problem:conflict', title: 'Conflict', status: 409, detail }, detail);
    });
    const user = renderTables(onDelete);

    await user.click(screen.getByRole('button', { name: 'Delete sp-7' }));
    await user.click(screen.getByRole('button', { name: 'Delete savepoint' }));

    expect(await screen.findByText(detail)).toBeTruthy();
  });

  it('offers no deletion without a handler, and leaves what an older savepoint lacks empty', () => {
    renderTables();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    const row = screen.getByRole('cell', { name: 'sp-3' }).closest('tr');
    expect(row?.textContent).toContain('—');
  });

  it('shows every figure of a checkpoint, and a dash for what an entry of an older version lacks', () => {
    renderTables();
    const table = screen.getByRole('table', { name: 'Checkpoints' });
    const headers = Array.from(table.querySelectorAll('th')).map((h) => h.textContent);
    expect(headers).toEqual(['Id', 'Status', 'Taken', 'Duration', 'Alignment', 'Size', 'Incremental', 'Uploaded', 'Parallelism']);
    const [, recent, old] = Array.from(table.querySelectorAll('tr'));
    expect(Array.from(recent!.querySelectorAll('td')).map((c) => c.textContent)).toEqual([
      '43', 'completed', '10 s ago', '108 ms', '2 ms', '160 KiB', '20 KiB', '24 KiB', '2',
    ]);
    expect(recent!.querySelectorAll('td')[2]!.getAttribute('title')).toMatch(/^triggered .*:59:50\.000, completed .*:59:50\.108$/);
    expect(Array.from(old!.querySelectorAll('td')).slice(3).map((c) => c.textContent)).toEqual(['—', '—', '—', '—', '—', '—']);
  });
});
