package io.tributary.cli;

import io.tributary.cli.client.JobFiles;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.sql.SqlJobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** Job file (a spec, or a SQL job named {@code *.sql}) to spec and execution plan. */
final class Jobs {
  private Jobs() {}

  static ExecutionPlan plan(Path specFile, Integer parallelism) throws IOException {
    return plan(load(specFile), parallelism);
  }

  static ExecutionPlan plan(JobSpec spec, Integer parallelism) {
    return Planner.plan(spec, parallelism);
  }

  /**
   * The spec in {@code file}: a YAML or JSON spec, or the spec a SQL job compiles to.
   *
   * @throws InvalidSpecException with every error; a SQL job's each as {@code file: line L, column C: message}
   */
  static JobSpec load(Path file) throws IOException {
    String name = file.toString();
    if (!JobFiles.isSql(name)) {
      return JobSpecs.load(file);
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return SqlJobs.compile(text, JobFiles.defaultName(name)).spec();
    } catch (InvalidSpecException e) {
      throw new InvalidSqlFileException(name, e);
    }
  }

  /** A SQL job file with errors: one line per error, {@code file: line L, column C: message}. */
  static final class InvalidSqlFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidSqlFileException(String file, InvalidSpecException e) {
      super(e.errors().stream().map(err -> file + ": " + err).collect(Collectors.joining("\n")), null, false, false);
    }
  }
}
