import type { OutputRecord } from '../api/types';
import type { SseEvent } from './sse';

export const OUTPUT_LIMIT = 200;

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

/** The newest `limit` records, newest first, after `incoming` (oldest first) arrived. */
export function keepNewest(current: readonly OutputRecord[], incoming: readonly OutputRecord[], limit = OUTPUT_LIMIT): OutputRecord[] {
  return [...incoming].reverse().concat(current).slice(0, limit);
}

/** The value fields to show as columns: in order of first appearance, at most `max`. */
export function outputColumns(records: readonly OutputRecord[], max = 10): string[] {
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

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
