package io.tributary.server;

import io.micronaut.json.tree.JsonNode;
import io.tributary.scheduler.lifecycle.InvalidRequestException;

/** A request's job: its {@code spec} or its {@code sql}, exactly one of them. */
final class JobTexts {
  private JobTexts() {}

  /**
   * The SQL text of a request that gives {@code sql}, or null for one that gives a spec.
   *
   * @throws InvalidRequestException if it gives both, or neither
   */
  static String sql(JsonNode spec, String sql) {
    boolean hasSpec = spec != null && !spec.isNull();
    if (hasSpec && sql != null) {
      throw new InvalidRequestException("sql", "give spec or sql, not both: a SQL job's settings are its SET "
          + "statements");
    }
    if (!hasSpec && sql == null) {
      throw new InvalidRequestException("spec", "is required: give spec, or sql for a job written as SQL");
    }
    return sql;
  }
}
