import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

/** Where an error is in the YAML text: a character range and its 1-based line. */
export interface YamlLocation {
  from: number;
  to: number;
  line: number;
  /** False when the pointer names something the document lacks; the location is then its nearest existing parent. */
  exact: boolean;
}

/** A YAML text parsed for pointer look-ups. */
export interface ParsedYaml {
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  return { text, doc, lines };
}

/** Decodes the reference tokens of an RFC 6901 JSON pointer ("" is the whole document). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Locates a JSON pointer of the API's request body in the YAML the user edits. The YAML is the
 * body's member at `prefix` (the job spec, `/spec`); a pointer outside it has no location (null).
 * A pointer to a missing member (a required field left out) lands on its nearest parent.
 */
export function locatePointer(parsed: ParsedYaml, pointer: string, prefix = '/spec'): YamlLocation | null {
  if (pointer !== prefix && !pointer.startsWith(`${prefix}/`)) return null;
  let segments: string[];
  try {
    segments = pointerSegments(pointer.slice(prefix.length));
  } catch {
    return null;
  }
  const root = parsed.doc.contents as Node | null;
  let node: unknown = root;
  let range: [number, number] = root?.range ? [root.range[0], root.range[1]] : [0, 0];
  let exact = true;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => keyOf(p.key) === segment);
      if (!pair) {
        exact = false;
        break;
      }
      const key = pair.key as Node | null;
      const value = pair.value as Node | null;
      const start = key?.range?.[0] ?? value?.range?.[0] ?? range[0];
      const end = isScalar(value) && value.range ? value.range[1] : (key?.range?.[1] ?? start);
      range = [start, end];
      node = value;
    } else if (isSeq(node)) {
      const index = /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
      const item = index >= 0 ? (node.items[index] as Node | undefined) : undefined;
      if (!item?.range) {
        exact = false;
        break;
      }
      range = [item.range[0], item.range[1]];
      node = item;
    } else {
      exact = false;
      break;
    }
  }
  return toLocation(parsed, range, exact);
}

function keyOf(key: unknown): string | null {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : null;
}

/** Clips the range to its first line, so a squiggle marks one line, not a whole block. */
function toLocation(parsed: ParsedYaml, [from, to]: [number, number], exact: boolean): YamlLocation {
  const line = parsed.lines.linePos(from).line;
  const newline = parsed.text.indexOf('\n', from);
  const lineEnd = newline < 0 ? parsed.text.length : newline;
  const end = Math.max(from, Math.min(to, lineEnd));
  return { from, to: end, line, exact };
}

/** The syntax errors of the YAML, located. */
export function syntaxErrors(parsed: ParsedYaml): { message: string; location: YamlLocation }[] {
  return parsed.doc.errors.map((e) => {
    const [from, to] = e.pos;
    const message = e.message.split('\n')[0] ?? e.message;
    return { message, location: toLocation(parsed, [from, Math.max(from, to)], true) };
  });
}
