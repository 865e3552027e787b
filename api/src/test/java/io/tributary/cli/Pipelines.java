package io.tributary.cli;

import io.tributary.worker.state.StateBackends;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.boot.LocalRun;
import io.tributary.worker.pool.InProcessWorkerPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Runs a spec template in-process with its file paths filled in, and reads committed file-sink output. */
public final class Pipelines {
  private Pipelines() {}

  /** Fills ${input} and ${out} in {@code template}, runs the job to its end at {@code parallelism}. */
  static void run(String template, Path input, Path out, int parallelism) throws Exception {
    run(template, input, out, parallelism, "heap");
  }

  /** The same with state in {@code backend}; forst keeps its objects and local files under {@code out}. */
  static void run(String template, Path input, Path out, int parallelism, String backend) throws Exception {
    ExecutionPlan plan = plan(template, input, out, parallelism, backend);
    try (StateBackends state = new StateBackends(out.resolve("state-objects").toString(), out.resolve("state-local"))) {
      LocalRun.runToEnd(plan, InProcessWorkerPool.Options.of(state.factories()));
    }
  }

  /** The plan of {@code template} with ${input} and ${out} filled in, at {@code parallelism}, state in {@code backend}. */
  public static ExecutionPlan plan(String template, Path input, Path out, int parallelism, String backend) {
    String spec = template.replace("${input}", input.toString()).replace("${out}", out.toString())
        + "\nstate: {backend: " + backend + "}\n";
    return Jobs.plan(JobSpecs.parse(spec), parallelism);
  }

  /** The committed lines of a file sink's directory ({@code *.jsonl}, hidden files excluded), sorted. */
  public static List<String> committed(Path dir) {
    List<String> lines = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return lines;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")
          && !p.getFileName().toString().startsWith(".")).toList()) {
        lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lines.removeIf(String::isBlank);
    lines.sort(null);
    return lines;
  }

  /**
   * {@code template} with each {@code ${input:NAME}} replaced by a copy, in {@code dir}, of the
   * pipeline's input file {@code pipelines/<pipeline>/NAME.jsonl} (for jobs with several sources).
   */
  public static String withInputs(String pipeline, String template, Path dir) throws IOException {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{input:([a-z0-9-]+)}").matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      Path copy = dir.resolve(m.group(1) + ".jsonl");
      Files.writeString(copy, resource("pipelines/" + pipeline + "/" + m.group(1) + ".jsonl"));
      m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(copy.toString()));
    }
    m.appendTail(out);
    return out.toString();
  }

  public static String resource(String name) throws IOException {
    try (var in = Pipelines.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IOException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
