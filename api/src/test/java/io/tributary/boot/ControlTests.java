package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.ObservedState;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
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
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** Specs, settings and checks the control-plane tests share. */
public final class ControlTests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ControlTests() {}

  /** Quick restarts and actions that give up within the tests' timeouts. */
  public static JobManager.Settings settings() {
    return JobManager.Settings.defaults()
        .withRestarts(new RestartPolicy(3, Duration.ofMillis(10), Duration.ofMillis(100)))
        .withActionTimeout(Duration.ofSeconds(30));
  }

  /** The embedded control plane over {@code data} with {@link #settings()}, its workers using {@code connectors}. */
  public static JobManager open(Path data, ConnectorFactory connectors) {
    return EmbeddedServices.controlPlane(data, connectors, settings());
  }

  /** A job that runs until stopped and costs little: 50 numbers a second into a blackhole. */
  public static String trickle(String name, String parallelism) {
    return """
        name: %s
        parallelism: %s
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          numbers: {type: datagen, count: 100000000, maxRecordsPerSecond: 50}
        operators:
          - {id: by-key, input: numbers, keyBy: [id]}
        sinks:
          out: {input: by-key, type: blackhole}
        """.formatted(name, parallelism);
  }

  /**
   * Nexmark bids per auction in 500 ms windows, 20,000 bids (2.2 s of event time), heap state, into
   * a file sink at {@code out}; {@code extra} lines are appended.
   */
  public static String bidsPerAuction(Path out, int maxRecordsPerSecond, String checkpointInterval, String extra) {
    return """
        name: bids
        parallelism: {initial: 2, min: 1, max: 2}
        checkpoints: {interval: %s}
        state: {backend: heap}
        sources:
          bids:
            type: nexmark
            kind: bid
            events: 20000
            %s
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
        operators:
          - id: per-auction
            input: bids
            keyBy: [auction]
            window: {type: tumbling, size: 500ms}
            aggregate: {bids: "count(*)", top: "max(price)"}
        sinks:
          out: {input: per-auction, type: file, path: "%s"}
        %s""".formatted(checkpointInterval,
        maxRecordsPerSecond > 0 ? "maxRecordsPerSecond: " + maxRecordsPerSecond : "", out, extra);
  }

  /** What the job of {@code spec} commits to {@code out} when it runs once to its end, without failures. */
  public static List<String> reference(String spec, Path out) throws InterruptedException {
    HeapStateBackendFactory heap = new HeapStateBackendFactory();
    LocalRun.runToEnd(Planner.plan(JobSpecs.parse(spec)), InProcessWorkerPool.Options.of(Map.of(heap.name(), heap)));
    List<String> lines = committed(out);
    assertThat(lines).as("the failure-free run produces output").isNotEmpty();
    return lines;
  }

  /** The committed lines of a file sink: its visible {@code part-*.jsonl} files, sorted. */
  public static List<String> committed(Path dir) {
    return io.tributary.run.FaultRuns.committed(dir);
  }

  /** Files of a file sink that are not output (in progress, or pending a commit). */
  public static List<String> hidden(Path dir) {
    return io.tributary.run.FaultRuns.hidden(dir);
  }

  /** Every window result appears once: one line per (key, window_start). */
  static void assertOneResultPerKeyAndWindow(List<String> lines, String keyField) {
    Map<String, Integer> seen = new HashMap<>();
    for (String line : lines) {
      try {
        Map<?, ?> m = JSON.readValue(line, Map.class);
        seen.merge(m.get(keyField) + "@" + m.get("window_start"), 1, Integer::sum);
      } catch (IOException e) {
        throw new UncheckedIOException("not a JSON object: " + line, e);
      }
    }
    assertThat(seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList())
        .as("(key, window) results committed more than once").isEmpty();
  }

  /** Polls {@code condition} every few milliseconds until it holds; fails after {@code timeout}. */
  public static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
  }

  /** Waits until the job is in {@code state}; fails with its events otherwise. */
  public static JobView awaitState(JobManager jobs, String project, String name, ObservedState state) {
    try {
      await(project + "/" + name + " " + state, Duration.ofSeconds(30), () -> {
        ObservedState now = jobs.get(project, name).observed();
        if (now == ObservedState.FAILED && state != ObservedState.FAILED) {
          throw new AssertionError("FAILED: " + jobs.get(project, name).failure());
        }
        return now == state;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; it is " + jobs.get(project, name).observed() + "; events:\n"
          + timeline(jobs.events(project, name)), e);
    }
    return jobs.get(project, name);
  }

  /** The state changes among {@code events}, as {@code FROM->TO}. */
  static List<String> transitions(List<JobEvent> events) {
    return events.stream().filter(e -> e.type() == JobEvent.Type.STATE_CHANGED)
        .map(e -> e.from() + "->" + e.to()).toList();
  }

  public static String timeline(List<JobEvent> events) {
    StringBuilder b = new StringBuilder();
    for (JobEvent e : events) {
      b.append(e.seq()).append(' ').append(e.time()).append(' ').append(e.type()).append(": ").append(e.message())
          .append('\n');
    }
    return b.toString();
  }
}
