import type { FieldError } from '../api/types';
import { locatePointer, pointerSegments, syntaxErrors, type ParsedYaml } from './yamlPointer';

/** An error to show with the spec: where it is in the YAML (line null: not in the spec). */
export interface SpecError {
  message: string;
  pointer: string | null;
  line: number | null;
  from: number;
  to: number;
}

/** YAML syntax errors, located. */
export function yamlSyntaxErrors(parsed: ParsedYaml): SpecError[] {
  return syntaxErrors(parsed).map(({ message, location }) => ({
    message,
    pointer: null,
    line: location.line,
    from: location.from,
    to: location.to,
  }));
}

/**
 * The API's field errors (pointers relative to the request body, the spec at `/spec`) located
 * in the YAML. An error about a missing field names it, since it is marked at its parent.
 */
export function locateFieldErrors(parsed: ParsedYaml, errors: readonly FieldError[]): SpecError[] {
  return errors.map((e) => {
    const location = locatePointer(parsed, e.pointer);
    if (!location) return { message: e.message, pointer: e.pointer, line: null, from: 0, to: 0 };
    const missing = location.exact ? null : lastSegment(e.pointer);
    return {
      message: missing ? `${missing}: ${e.message}` : e.message,
      pointer: e.pointer,
      line: location.line,
      from: location.from,
      to: location.to,
    };
  });
}

function lastSegment(pointer: string): string | null {
  try {
    const segments = pointerSegments(pointer);
    return segments[segments.length - 1] ?? null;
  } catch {
    return null;
  }
}
