package io.tributary.plan;

/**
 * A named aggregate.
 *
 * @param name the output field
 * @param function the aggregate function
 * @param argument a SQL expression over the input record; null for {@code count(*)}
 */
public record AggregatePlan(String name, Function function, String argument) {
  public enum Function { COUNT, SUM, MIN, MAX, AVG }
}
