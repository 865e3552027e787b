// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bySink } from '../lib/output';
import { SinkTable } from './SinkTable';

describe('SinkTable', () => {
  it('renders one header row of the sink\'s own columns and readable window bounds', () => {
    const start = Date.UTC(2026, 11, 2, 9, 20, 0);
    const [auctions] = bySink([
      { operatorId: 'auctions', at: '2026-12-02T09:20:05.120Z', value: { auction: 7, window_start: start, window_end: start + 5000, bids: 3 } },
      { operatorId: 'auctions', at: '2026-12-02T09:20:05.130Z', value: { auction: 8, window_start: start, window_end: start + 5000, bids: 1 } },
    ]);
    render(<SinkTable output={auctions!} times={new Set(['window_start', 'window_end'])} titled />);

    const table = screen.getByRole('table', { name: 'Live output of auctions' });
    const rows = within(table).getAllByRole('row');
    expect(table.querySelectorAll('thead tr')).toHaveLength(1);
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Written', 'auction', 'window_start', 'window_end', 'bids',
    ]);
    const cell = within(rows[1]!).getAllByRole('cell')[2]!;
    expect(cell.textContent).toMatch(/^2026-12-0[12] \d\d:20:00$/);
    expect(cell.getAttribute('title')).toBe(`${start} = 2026-12-02T09:20:00.000Z`);
    expect(screen.getByRole('heading', { name: /auctions/ }).textContent).toContain('2 records');
  });
});
