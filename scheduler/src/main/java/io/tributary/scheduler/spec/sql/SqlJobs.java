package io.tributary.scheduler.spec.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecBudget;
import io.tributary.scheduler.spec.SpecError;
import io.tributary.scheduler.spec.sql.internal.SqlCompiler;
import java.time.Duration;
import java.util.List;

/**
 * SQL jobs: a job written as SQL instead of a spec's operator list, compiled to that spec.
 *
 * <pre>
 * SET 'name' = 'hot-auctions';                  -- any spec setting: parallelism, checkpoints.interval, ...
 * CREATE TABLE bids (auction BIGINT, price BIGINT, dateTime TIMESTAMP(3),
 *   WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND)
 *   WITH ('connector' = 'nexmark', 'kind' = 'bid');    -- a source's or sink's type and options
 * CREATE TABLE counts (auction BIGINT, window_end TIMESTAMP(3), n BIGINT) WITH ('connector' = 'stdout');
 * INSERT INTO counts
 *   SELECT auction, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
 *   GROUP BY auction, window_start, window_end;
 * </pre>
 *
 * Statements are parsed by Calcite's parser (extended with CREATE TABLE ... WITH, WATERMARK and
 * Flink's SET), queries validated by Calcite's validator against the declared tables, and
 * translated from their relational plans into the spec's operators, so that a SQL job runs,
 * checkpoints, rescales and shows its graph like any other. Every error names its line and column.
 */
public final class SqlJobs {
  /** The time compiling one job may take (Calcite's first use in a process loads many classes). */
  public static final Duration BUDGET = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqlJobs() {}

  /**
   * The name {@code sql} gives its job ({@code SET 'name' = '...'}), if it parses and gives one;
   * nothing else of the text is checked.
   */
  public static java.util.Optional<String> declaredName(String sql) {
    return SqlCompiler.declaredName(sql);
  }

  /**
   * Compiles {@code sql}.
   *
   * @param defaultName the job's name unless the text sets one ({@code SET 'name' = '...'}); null:
   *     the text must
   * @throws InvalidSpecException with every problem found, each with its line and column
   */
  public static SqlJob compile(String sql, String defaultName) {
    if (sql == null || sql.isBlank()) {
      throw new InvalidSpecException(List.of(SpecError.at(1, 1, "the SQL text is empty")));
    }
    SqlCompiler.Compiled compiled = SpecBudget.within(BUDGET, () -> SqlCompiler.compile(sql, defaultName));
    String json;
    try {
      json = JSON.writeValueAsString(compiled.document());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a compiled spec: " + e.getMessage(), e);
    }
    SqlJob job = new SqlJob(sql, null, json, compiled.locator()::locate);
    try {
      JobSpec spec = JobSpecs.parse(json);
      return new SqlJob(sql, spec, json, compiled.locator()::locate);
    } catch (InvalidSpecException e) {
      throw job.locate(e);
    }
  }
}
