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
  public enum Function { COUNT, SUM, MIN, MAX, AVG, COUNT_DISTINCT }
}
