import type { JobSpec, OutputRecord } from '../api/types';
import { formatEpochMillis } from './format';
import type { SseEvent } from './sse';

/** How many of each sink's newest records the live output keeps. */
export const OUTPUT_LIMIT = 100;

/** The record an output stream event carries, or null for other events and malformed data. */
export function recordOf(event: SseEvent): OutputRecord | null {
  if (event.event !== 'record') return null;
  try {
    const parsed = JSON.parse(event.data) as Partial<OutputRecord>;
    if (typeof parsed.operatorId !== 'string' || typeof parsed.at !== 'string') return null;
    return { operatorId: parsed.operatorId, at: parsed.at, value: (parsed.value ?? {}) as Record<string, unknown> };
  } catch {
    return null;
  }
}

/**
 * The newest `limit` records of each sink, newest first, after `incoming` (oldest first) arrived:
 * a sink that writes rarely keeps its records however busy the others are.
 */
export function keepNewest(current: readonly OutputRecord[], incoming: readonly OutputRecord[], limit = OUTPUT_LIMIT): OutputRecord[] {
  const kept = new Map<string, number>();
  return [...incoming].reverse().concat(current).filter((r) => {
    const n = kept.get(r.operatorId) ?? 0;
    kept.set(r.operatorId, n + 1);
    return n < limit;
  });
}

/** The value fields to show as columns: in order of first appearance, at most `max`. */
export function outputColumns(records: readonly OutputRecord[], max = 12): string[] {
  const seen = new Set<string>();
  for (const r of records) {
    if (r.value && typeof r.value === 'object' && !Array.isArray(r.value)) {
      for (const k of Object.keys(r.value)) {
        seen.add(k);
        if (seen.size >= max) return [...seen];
      }
    }
  }
  return [...seen];
}

/** The records of one sink, newest first, with the columns of its table. */
export interface SinkOutput {
  operatorId: string;
  records: OutputRecord[];
  columns: string[];
}

/**
 * The records grouped by the sink that wrote them, one table each: sinks in `order` (the plan's)
 * first, others in order of appearance. Every table has the columns of its own records.
 */
export function bySink(records: readonly OutputRecord[], order: readonly string[] = []): SinkOutput[] {
  const groups = new Map<string, OutputRecord[]>();
  for (const id of order) groups.set(id, []);
  for (const r of records) {
    const group = groups.get(r.operatorId);
    if (group) group.push(r);
    else groups.set(r.operatorId, [r]);
  }
  return [...groups.entries()]
    .filter(([, rs]) => rs.length > 0)
    .map(([operatorId, rs]) => ({ operatorId, records: rs, columns: outputColumns(rs) }));
}

/** Window bounds, which the contract defines as epoch milliseconds. */
const WINDOW_FIELDS = ['window_start', 'window_end'];

/** The fields that hold instants: the window bounds and every source's event-time field. */
export function timeFields(spec: JobSpec | null | undefined): Set<string> {
  const fields = new Set(WINDOW_FIELDS);
  for (const source of Object.values(spec?.sources ?? {})) {
    const field = (source as { eventTime?: { field?: unknown } }).eventTime?.field;
    if (typeof field === 'string') fields.add(field);
  }
  return fields;
}

/** A cell as shown: epoch milliseconds of a time field as a readable local instant. */
export function formatCell(value: unknown, isTime = false): string {
  if (value === null || value === undefined) return '';
  if (isTime && typeof value === 'number' && Number.isFinite(value)) return formatEpochMillis(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The raw value behind a cell, for its tooltip: "1796205605000 = 2026-12-02T09:20:05.000Z". */
export function rawCell(value: unknown, isTime = false): string | undefined {
  if (!isTime || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? String(value) : `${value} = ${at.toISOString()}`;
}
