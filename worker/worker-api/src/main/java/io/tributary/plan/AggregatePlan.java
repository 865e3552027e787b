package io.tributary.plan;

/**
 * A named aggregate.
 *
 * @param name the output field
 * @param function the aggregate function; {@code COUNT_DISTINCT} is {@code count(DISTINCT x)}, the
 *     number of distinct non-null values
 * @param argument a SQL expression over the input record; null for {@code count(*)}
 */
public record AggregatePlan(String name, Function function, String argument) {
  public enum Function {
    COUNT, SUM, MIN, MAX, AVG, COUNT_DISTINCT;

    /**
     * Whether a value counted can be taken out again from the running value alone (count, sum,
     * avg), as an aggregate over an updating input needs; min, max and count(DISTINCT) would need
     * every value kept.
     */
    public boolean retracts() {
      return this == COUNT || this == SUM || this == AVG;
    }
  }
}
