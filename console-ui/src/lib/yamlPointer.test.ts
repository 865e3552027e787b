import { describe, expect, it } from 'vitest';
import { locateFieldErrors, yamlSyntaxErrors } from './specErrors';
import { locatePointer, parseYaml, pointerSegments } from './yamlPointer';

const SPEC = `# clicks per user
name: clicks-per-user
parallelism: {initial: 2, min: 1, max: 8}
sources:
  clicks:
    type: file
    path: examples/data/clicks.jsonl
operators:
  - id: slow-pages
    input: clicks
    filter: "ms >= 20"
  - id: per-user
    input: slow-pages
    keyBy: [user]
    window:
      type: tumbling
    aggregate: {views: "count(*)"}
sinks:
  results: {input: per-usr, type: file, path: out/x}
  "a/b~c": {input: per-user, type: stdout}
`;

const lineOf = (pointer: string, text = SPEC) => locatePointer(parseYaml(text), pointer)?.line ?? null;

describe('locatePointer', () => {
  it('finds scalars in maps and sequences', () => {
    expect(lineOf('/spec/name')).toBe(2);
    expect(lineOf('/spec/sources/clicks/path')).toBe(7);
    expect(lineOf('/spec/operators/1/input')).toBe(13);
    expect(lineOf('/spec/operators/1/keyBy/0')).toBe(14);
  });

  it('finds values inside flow collections', () => {
    expect(lineOf('/spec/parallelism/max')).toBe(3);
    expect(lineOf('/spec/sinks/results/input')).toBe(19);
  });

  it('marks the exact value range of a scalar', () => {
    const parsed = parseYaml(SPEC);
    const loc = locatePointer(parsed, '/spec/sinks/results/input')!;
    expect(loc.exact).toBe(true);
    expect(SPEC.slice(loc.from, loc.to)).toBe('input: per-usr');
  });

  it('puts a missing member at its nearest parent', () => {
    const parsed = parseYaml(SPEC);
    const loc = locatePointer(parsed, '/spec/operators/1/window/size')!;
    expect(loc).toMatchObject({ line: 15, exact: false });
    expect(SPEC.slice(loc.from, loc.to)).toBe('window');
    expect(lineOf('/spec/operators/7/window')).toBe(8);
  });

  it('points at the first line of a collection', () => {
    const parsed = parseYaml(SPEC);
    const loc = locatePointer(parsed, '/spec/operators/1')!;
    expect(loc.line).toBe(12);
    expect(SPEC.slice(loc.from, loc.to)).toBe('id: per-user');
  });

  it('decodes escaped pointer tokens', () => {
    expect(pointerSegments('/sinks/a~1b~0c')).toEqual(['sinks', 'a/b~c']);
    expect(lineOf('/spec/sinks/a~1b~0c/type')).toBe(20);
  });

  it('maps the spec itself to its first line and ignores pointers outside the spec', () => {
    expect(lineOf('/spec')).toBe(2);
    expect(lineOf('/desiredState')).toBeNull();
    expect(lineOf('')).toBeNull();
    expect(lineOf('/specification/name')).toBeNull();
  });
});

describe('spec errors', () => {
  it('locates the API field errors and names a missing field', () => {
    const errors = locateFieldErrors(parseYaml(SPEC), [
      { pointer: '/spec/operators/1/window/size', message: 'is required for a tumbling window' },
      { pointer: '/spec/sinks/results/input', message: "'per-usr' is not declared" },
      { pointer: '/restorePolicy', message: 'is invalid' },
    ]);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [15, 'size: is required for a tumbling window'],
      [19, "'per-usr' is not declared"],
      [null, 'is invalid'],
    ]);
  });

  it('reports YAML syntax errors at their line', () => {
    const errors = yamlSyntaxErrors(parseYaml('name: x\nsources:\n  a: {type: file\nsinks: {}\n'));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.line).toBeGreaterThanOrEqual(3);
  });
});
