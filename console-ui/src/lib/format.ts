// Human-readable figures: tabular numbers, short units, relative times.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration in milliseconds as "350 ms", "2.0 s", "4 min 5 s", "3 h 2 min", "2 d 4 h". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (abs < SECOND) return `${sign}${Math.round(abs)} ms`;
  if (abs < 10 * SECOND) return `${sign}${(abs / SECOND).toFixed(1)} s`;
  if (abs < MINUTE) return `${sign}${Math.round(abs / SECOND)} s`;
  if (abs < HOUR) return `${sign}${withRest(abs, MINUTE, 'min', SECOND, 's')}`;
  if (abs < DAY) return `${sign}${withRest(abs, HOUR, 'h', MINUTE, 'min')}`;
  return `${sign}${withRest(abs, DAY, 'd', HOUR, 'h')}`;
}

function withRest(ms: number, big: number, bigUnit: string, small: number, smallUnit: string): string {
  const whole = Math.floor(ms / big);
  const rest = Math.floor((ms - whole * big) / small);
  return rest === 0 ? `${whole} ${bigUnit}` : `${whole} ${bigUnit} ${rest} ${smallUnit}`;
}

/** How long ago an RFC 3339 instant was: "just now", "12 s ago", "4 min ago", "3 h ago". */
export function formatAge(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const ago = now - at;
  if (ago < SECOND) return 'just now';
  if (ago < MINUTE) return `${Math.floor(ago / SECOND)} s ago`;
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  return `${Math.floor(ago / DAY)} d ago`;
}

/**
 * An absolute local time for tooltips and tables: "2026-05-01 10:00:05", with milliseconds
 * ("10:00:05.108") when `millis` is set.
 */
export function formatTime(iso: string | null | undefined, millis = false): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '—';
  return localTime(at, millis);
}

/** Epoch milliseconds as a local instant: "2026-05-01 10:00:05", or "…10:00:05.250" when not whole seconds. */
export function formatEpochMillis(ms: number): string {
  const at = new Date(ms);
  if (Number.isNaN(at.getTime())) return String(ms);
  return localTime(at, at.getMilliseconds() !== 0);
}

function localTime(at: Date, millis: boolean): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const base = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}:${p(at.getSeconds())}`;
  return millis ? `${base}.${p(at.getMilliseconds(), 3)}` : base;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

const compact = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** A records-per-second rate: "0", "12.5", "1,000", "1.2 M". */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return '—';
  if (perSecond >= 1_000_000) return `${compact.format(perSecond / 1_000_000)} M`;
  if (perSecond >= 100) return whole.format(perSecond);
  return compact.format(perSecond);
}
