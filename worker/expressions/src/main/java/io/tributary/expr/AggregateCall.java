package io.tributary.expr;

import io.tributary.plan.AggregatePlan;
import java.util.Objects;

/**
 * A parsed aggregate call such as {@code sum(price)}.
 *
 * @param function the aggregate function
 * @param argument the argument as SQL text; null only for {@code count(*)}. A {@code COUNT} with
 *     a non-null argument counts the records where the argument is not null.
 */
public record AggregateCall(AggregatePlan.Function function, String argument) {
  public AggregateCall {
    Objects.requireNonNull(function, "function");
  }
}
