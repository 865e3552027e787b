import type { FieldError } from '../api/types';
import type { SpecError } from './specErrors';

/**
 * The API's errors of a SQL job (pointer `/sql`, with a line and a column) located in its text:
 * each marks the word at its position (or the rest of the line where none starts there). Errors
 * without a position keep their pointer and are shown apart.
 */
export function locateSqlErrors(text: string, errors: readonly FieldError[]): SpecError[] {
  const starts = lineStarts(text);
  return errors.map((e) => {
    if (e.line === undefined || e.line === null || e.line < 1 || e.line > starts.length) {
      return { message: e.message, pointer: e.pointer, line: null, from: 0, to: 0 };
    }
    const lineStart = starts[e.line - 1]!;
    const lineEnd = e.line < starts.length ? starts[e.line]! - 1 : text.length;
    const from = Math.min(lineStart + Math.max((e.column ?? 1) - 1, 0), lineEnd);
    return { message: e.message, pointer: e.pointer, line: e.line, from, to: wordEnd(text, from, lineEnd) };
  });
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') starts.push(i + 1);
  }
  return starts;
}

/** The end of the identifier, quoted name or string at `from`; the line's end if none is there. */
function wordEnd(text: string, from: number, lineEnd: number): number {
  const quote = text[from];
  if (quote === '`' || quote === "'" || quote === '"') {
    const close = text.indexOf(quote, from + 1);
    return close > from && close <= lineEnd ? close + 1 : lineEnd;
  }
  let end = from;
  while (end < lineEnd && /[A-Za-z0-9_$]/.test(text.charAt(end))) end++;
  return end > from ? end : Math.max(lineEnd, from + 1);
}

/** The name a SQL job gives itself (`SET 'name' = '...'`), if it does. */
export function sqlJobName(text: string): string | null {
  const m = /^\s*SET\s+'name'\s*=\s*'([^']*)'/im.exec(text);
  return m?.[1] ?? null;
}
