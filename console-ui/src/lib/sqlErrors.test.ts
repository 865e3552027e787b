import { describe, expect, it } from 'vitest';
import type { SpecError } from './specErrors';
import { locateSqlErrors, sqlJobName } from './sqlErrors';

const SQL = `CREATE TABLE bid (auction BIGINT) WITH ('connector' = 'nexmark');
INSERT INTO results
SELECT prise FROM bid;`;

describe('locateSqlErrors', () => {
  it('marks the word at the error’s line and column', () => {
    const e = locateSqlErrors(SQL, [{ pointer: '/sql', line: 3, column: 8, message: "Column 'prise' not found" }])[0]!;
    expect(e.line).toBe(3);
    expect(SQL.slice(e.from, e.to)).toBe('prise');
  });

  it('marks a quoted option whole', () => {
    const e = locateSqlErrors(SQL, [{ pointer: '/sql', line: 1, column: 41, message: 'unknown option' }])[0]!;
    expect(SQL.slice(e.from, e.to)).toBe("'connector'");
  });

  it('marks the rest of the line where no word starts, and keeps errors without a position apart', () => {
    const [atSpace, apart] = locateSqlErrors(SQL, [
      { pointer: '/sql', line: 2, column: 12, message: 'here' },
      { pointer: '/sql', message: 'somewhere' },
    ]) as [SpecError, SpecError];
    expect(SQL.slice(atSpace.from, atSpace.to)).toBe(' results');
    expect(apart.line).toBeNull();
  });

  it('clips a column beyond its line to the line’s end', () => {
    const e = locateSqlErrors(SQL, [{ pointer: '/sql', line: 2, column: 99, message: 'end' }])[0]!;
    expect(e.from).toBe(SQL.indexOf('\nSELECT'));
  });
});

describe('sqlJobName', () => {
  it('reads the name a SET gives the job', () => {
    expect(sqlJobName("-- a job\nSET 'name' = 'hot-items';\n" + SQL)).toBe('hot-items');
    expect(sqlJobName(SQL)).toBeNull();
  });
});
