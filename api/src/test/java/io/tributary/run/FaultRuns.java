package io.tributary.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.boot.LocalRun;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.worker.pool.InProcessWorkerPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** What the checkpoint fault tests share: plans, failure-free reference runs, committed file-sink output. */
public final class FaultRuns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FaultRuns() {}

  static ExecutionPlan plan(String yaml, Integer parallelism) {
    return Planner.plan(JobSpecs.parse(yaml), parallelism);
  }

  /**
   * Runs {@code plan} to its end without checkpoints (its file sinks commit at the end) and returns
   * what its file sink at {@code out} committed: the failure-free output.
   */
  static List<String> reference(ExecutionPlan plan, Path out) throws InterruptedException {
    HeapStateBackendFactory heap = new HeapStateBackendFactory();
    LocalRun.runToEnd(plan, InProcessWorkerPool.Options.of(Map.of(heap.name(), heap)));
    List<String> lines = committed(out);
    assertThat(lines).as("the failure-free run produces output").isNotEmpty();
    return lines;
  }

  /** The committed lines of a file sink: its visible {@code part-*.jsonl} files, sorted. */
  public static List<String> committed(Path dir) {
    List<String> lines = new ArrayList<>();
    for (String name : files(dir)) {
      if (name.startsWith("part-") && name.endsWith(".jsonl")) {
        try {
          lines.addAll(Files.readAllLines(dir.resolve(name), StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    lines.removeIf(String::isBlank);
    lines.sort(null);
    return lines;
  }

  /** Files of a file sink that are not output (in progress, or pending a commit). */
  public static List<String> hidden(Path dir) {
    return files(dir).stream().filter(n -> n.startsWith(".")).toList();
  }

  private static List<String> files(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> parse(String line) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = JSON.readValue(line, Map.class);
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException("not a JSON object: " + line, e);
    }
  }

  /** Every window result appears once: one line per (key, window_start). */
  static void assertOneResultPerKeyAndWindow(List<String> lines, String keyField) {
    Map<String, Integer> seen = new HashMap<>();
    for (String line : lines) {
      Map<String, Object> m = parse(line);
      seen.merge(m.get(keyField) + "@" + m.get("window_start"), 1, Integer::sum);
    }
    assertThat(seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList())
        .as("(key, window) results committed more than once").isEmpty();
  }

  /** Polls {@code condition} until it holds; fails after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      Thread.onSpinWait();
    }
  }
}
