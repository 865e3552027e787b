// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { job, metrics } from '../test/fixtures';
import { JobsTable } from './JobsTable';

const NOW = Date.parse('2026-05-01T10:00:12Z');

const jobs = [
  job({
    name: 'clicks',
    lastCheckpoint: { id: 4, status: 'completed', triggeredAt: '2026-05-01T10:00:00Z', completedAt: '2026-05-01T10:00:00Z' },
  }),
  job({ name: 'bids', observedState: 'stopped', desiredState: 'STOPPED', parallelism: undefined }),
  job({ name: 'orders', observedState: 'failed', spec: { name: 'orders', parallelism: 3, sources: {}, sinks: {} } }),
  job({ name: 'payments' }),
];

function renderTable() {
  return render(
    <JobsTable project="default" jobs={jobs} metrics={{ clicks: metrics({ recordsInPerSecond: 1000, watermarkLagMillis: 2001 }) }} now={NOW} />,
  );
}

const rowNames = () =>
  within(screen.getByRole('table', { name: 'Jobs' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('JobsTable', () => {
  it('shows each job with state, parallelism, input rate, watermark lag and checkpoint age', () => {
    renderTable();
    const row = screen.getByRole('link', { name: 'clicks' }).closest('tr')!;
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['clicks', 'running', '2 (1–8)', '1,000 /s', '2.0 s', '12 s ago']);
    expect(screen.getByRole('link', { name: 'clicks' }).getAttribute('href')).toBe('#/jobs/default/clicks');
    const orders = within(screen.getByRole('link', { name: 'orders' }).closest('tr')!).getAllByRole('cell');
    expect(orders[2]!.textContent).toBe('2 (pinned)');
    expect(orders[3]!.textContent).toBe('—');
  });

  it('filters by state with counts, and back to all', async () => {
    const user = userEvent.setup();
    renderTable();
    expect(rowNames()).toEqual(['clicks', 'bids', 'orders', 'payments']);
    const filters = screen.getByRole('group', { name: 'Filter by state' });
    expect(within(filters).getByRole('button', { name: /running/ }).textContent).toBe('running 2');

    await user.click(within(filters).getByRole('button', { name: /failed/ }));
    expect(rowNames()).toEqual(['orders']);
    expect(within(filters).getByRole('button', { name: /failed/ }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(filters).getByRole('button', { name: /running/ }));
    expect(rowNames()).toEqual(['clicks', 'payments']);

    await user.click(within(filters).getByRole('button', { name: /All/ }));
    expect(rowNames()).toHaveLength(4);
  });

  it('finds jobs by name and says when nothing matches', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.type(screen.getByRole('searchbox', { name: 'Find a job by name' }), 'pay');
    expect(rowNames()).toEqual(['payments']);
    await user.type(screen.getByRole('searchbox'), 'zzz');
    expect(screen.getByText('No job matches “payzzz”.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all jobs' }));
    expect(rowNames()).toHaveLength(4);
  });

  it('invites to create the first job of an empty project', () => {
    render(<JobsTable project="analytics" jobs={[]} metrics={{}} now={NOW} />);
    expect(screen.getByText('No jobs in project analytics yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a job' }).getAttribute('href')).toBe('#/new/analytics');
  });
});
