package io.tributary.scheduler.spec.sql;

import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SpecError;
import java.util.function.UnaryOperator;

/**
 * A SQL job compiled: its text, the spec it means, and that spec as the JSON document a user
 * could have written (which is what the control plane stores and runs).
 *
 * @param sql the job's SQL text as given
 * @param spec the valid spec it compiles to
 * @param specJson {@code spec} as a JSON document, which parses to {@code spec}
 * @param locator moves an error of the compiled spec to the SQL it comes from
 */
public record SqlJob(String sql, JobSpec spec, String specJson, UnaryOperator<SpecError> locator) {
  /**
   * {@code e}, an error found in the compiled spec by a later check (a project's file roots, its
   * quotas), with each error moved to the line and column of the SQL it comes from, in text order.
   */
  public InvalidSpecException locate(InvalidSpecException e) {
    return new InvalidSpecException(e.errors().stream().map(locator)
        .sorted(java.util.Comparator.comparingInt(SpecError::line).thenComparingInt(SpecError::column)).toList());
  }
}
