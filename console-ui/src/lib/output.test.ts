import { describe, expect, it } from 'vitest';
import type { JobSpec, OutputRecord } from '../api/types';
import { bySink, formatCell, keepNewest, rawCell, timeFields } from './output';

const rec = (operatorId: string, value: Record<string, unknown>, at = '2026-12-02T10:00:00Z'): OutputRecord => ({ operatorId, at, value });

describe('live output', () => {
  it('groups records by sink, each with the columns of its own records, in the plan order', () => {
    const records = [
      rec('auctions', { auction: 1, window_start: 0, bids: 3 }),
      rec('busiest', { auctions: 40, max_bids: 9 }),
      rec('auctions', { auction: 2, window_start: 0, bids: 1, top_price: 5 }),
    ];
    const groups = bySink(records, ['busiest', 'auctions', 'idle']);
    expect(groups.map((g) => g.operatorId)).toEqual(['busiest', 'auctions']);
    expect(groups[0]!.columns).toEqual(['auctions', 'max_bids']);
    expect(groups[1]!.columns).toEqual(['auction', 'window_start', 'bids', 'top_price']);
    expect(groups[1]!.records.map((r) => r.value.auction)).toEqual([1, 2]);
    expect(bySink([rec('other', { x: 1 })], ['busiest']).map((g) => g.operatorId)).toEqual(['other']);
  });

  it('keeps the newest records of each sink, so a quiet sink is not pushed out by a busy one', () => {
    const busy = Array.from({ length: 10 }, (_, i) => rec('auctions', { n: i }));
    const kept = keepNewest([rec('busiest', { n: 'old' })], busy, 4);
    expect(kept.filter((r) => r.operatorId === 'auctions').map((r) => r.value.n)).toEqual([9, 8, 7, 6]);
    expect(kept.filter((r) => r.operatorId === 'busiest')).toHaveLength(1);
  });

  it('shows window bounds and event times as instants, the raw value on hover', () => {
    const spec = { name: 'j', sources: { bids: { type: 'nexmark', eventTime: { field: 'dateTime' } } }, sinks: {} } as unknown as JobSpec;
    const times = timeFields(spec);
    expect([...times].sort()).toEqual(['dateTime', 'window_end', 'window_start']);
    const ms = Date.UTC(2026, 11, 2, 9, 20, 5);
    const shown = formatCell(ms, true);
    expect(shown).toMatch(/^2026-12-0[12] \d\d:20:05$/);
    expect(formatCell(ms + 250, true)).toMatch(/:20:05\.250$/);
    expect(rawCell(ms, true)).toBe(`${ms} = 2026-12-02T09:20:05.000Z`);
    expect(formatCell(ms)).toBe(String(ms));
    expect(rawCell(ms)).toBeUndefined();
    expect(formatCell('2026-12-02T09:20:05Z', true)).toBe('2026-12-02T09:20:05Z');
    expect(timeFields(null)).toEqual(new Set(['window_start', 'window_end']));
  });
});
