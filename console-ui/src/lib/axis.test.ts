import { describe, expect, it } from 'vitest';
import { axisSize } from './axis';

describe('axisSize', () => {
  const measure = (text: string) => text.length * 7;

  it('is as wide as the widest label plus the gap to the plot, whatever the value', () => {
    const small = axisSize(['0 ms', '500 ms', '1.0 s'], measure);
    const large = axisSize(['0 ms', '100 d', '200 d', '331 d 11 h'], measure);
    expect(large).toBeGreaterThan(small);
    expect(large).toBeGreaterThanOrEqual(measure('331 d 11 h') + 5);
  });

  it('keeps a minimum width while there are no labels yet', () => {
    expect(axisSize(null, measure)).toBe(40);
    expect(axisSize([null, ''], measure)).toBe(40);
  });
});
