// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { RestorePolicy, Savepoint } from '../api/types';
import { RescaleDialog, ResumeDialog, StopDialog } from './ActionDialogs';

const savepoints: Savepoint[] = [
  { id: 'sp-2', status: 'completed', trigger: 'stop', triggeredAt: '2026-05-01T10:00:00Z', parallelism: 2 },
  { id: 'sp-1', status: 'failed', trigger: 'user', triggeredAt: '2026-05-01T09:00:00Z' },
];

function renderResume() {
  const onResume = vi.fn<(policy: RestorePolicy) => Promise<void>>(async () => undefined);
  const onCancel = vi.fn();
  render(<ResumeDialog savepoints={savepoints} onResume={onResume} onCancel={onCancel} />);
  return { onResume, onCancel, user: userEvent.setup() };
}

describe('ResumeDialog', () => {
  it('resumes from the latest state by default', async () => {
    const { onResume, user } = renderResume();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onResume).toHaveBeenCalledWith({ from: 'latest' });
  });

  it('resumes from a chosen completed savepoint', async () => {
    const { onResume, user } = renderResume();
    await user.click(screen.getByRole('radio', { name: /A savepoint/ }));
    const select = screen.getByRole('combobox', { name: 'Savepoint' });
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual(['sp-2']);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onResume).toHaveBeenCalledWith({ from: 'savepoint', savepointId: 'sp-2' });
  });

  it('asks for confirmation that state will be lost before resuming with no state', async () => {
    const { onResume, user } = renderResume();
    await user.click(screen.getByRole('radio', { name: /No state/ }));
    await user.click(screen.getByRole('button', { name: 'Resume' }));

    expect(onResume).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Resume with no state?' }).textContent).toContain('State will be lost.');

    await user.click(screen.getByRole('button', { name: 'Resume with no state' }));
    expect(onResume).toHaveBeenCalledExactlyOnceWith({ from: 'none' });
  });

  it('does not resume when the confirmation is cancelled', async () => {
    const { onResume, user } = renderResume();
    await user.click(screen.getByRole('radio', { name: /No state/ }));
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(onResume).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Resume the job' })).toBeTruthy();
  });

  it('shows the server’s problem detail when resuming fails', async () => {
    const onResume = vi.fn(async () => {
      throw new ApiError(409, { type: 'urn:tributary:problem:conflict', title: 'Conflict', status: 409, detail: 'the job is already running' }, 'the job is already running');
    });
    render(<ResumeDialog savepoints={[]} onResume={onResume} onCancel={() => undefined} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resume' }));
    expect((await screen.findByRole('alert')).textContent).toContain('the job is already running');
    expect(screen.getByRole('radio', { name: /A savepoint/ })).toHaveProperty('disabled', true);
  });
});

describe('StopDialog', () => {
  it('stops with a savepoint unless unticked', async () => {
    const onStop = vi.fn(async () => undefined);
    const user = userEvent.setup();
    render(<StopDialog onStop={onStop} onCancel={() => undefined} />);
    await user.click(screen.getByRole('checkbox', { name: /Take a savepoint first/ }));
    await user.click(screen.getByRole('button', { name: 'Stop without savepoint' }));
    expect(onStop).toHaveBeenCalledWith(false);
  });
});

describe('RescaleDialog', () => {
  it('accepts only a parallelism within the spec’s bounds', async () => {
    const onRescale = vi.fn(async () => undefined);
    const user = userEvent.setup();
    render(<RescaleDialog current={2} bounds={{ initial: 2, min: 1, max: 8 }} onRescale={onRescale} onCancel={() => undefined} />);
    const input = screen.getByRole('spinbutton', { name: 'Parallelism' });
    await user.clear(input);
    await user.type(input, '9');
    expect(screen.getByRole('button', { name: 'Rescale' })).toHaveProperty('disabled', true);
    await user.clear(input);
    await user.type(input, '4');
    await user.click(screen.getByRole('button', { name: 'Rescale' }));
    expect(onRescale).toHaveBeenCalledWith(4);
  });
});
