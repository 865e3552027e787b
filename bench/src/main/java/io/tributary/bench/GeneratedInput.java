package io.tributary.bench;

import com.sun.management.OperatingSystemMXBean;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.Connectors;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.stream.Record;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The input records of a query, made outside any job by the query's own source connectors (built
 * from the query's spec, one split each, in the order a job at parallelism 1 reads them): to
 * measure what generating them costs, and to keep the fields a plain loop reads.
 */
final class GeneratedInput {
  private static final int BATCH = 1024;

  private GeneratedInput() {}

  /** Wall and process CPU seconds to generate {@code records} records. */
  record Cost(long records, double wallSeconds, double cpuSeconds) {
    /** CPU seconds per million records. */
    double cpuPerMillion() {
      return cpuSeconds * 1e6 / records;
    }
  }

  /**
   * The fields a keyed tumbling window reads, in input order: the key, the event time and, for an
   * aggregate over a field, its value (null otherwise).
   */
  record Columns(long[] keys, long[] times, double[] values) {
    int size() {
      return keys.length;
    }
  }

  /**
   * What the sources of job spec {@code spec} read, for people and as a key: each source's type,
   * Nexmark kind and number of events, e.g. {@code nexmark bid 4,600,000 + nexmark auction 300,000}.
   */
  static String describe(String spec) {
    List<String> parts = new ArrayList<>();
    for (SourceSpec s : JobSpecs.parse(spec).sources().values()) {
      Object kind = s.properties().get("kind");
      Object n = s.properties().getOrDefault("events", s.properties().get("count"));
      parts.add(s.type() + (kind == null ? "" : " " + kind) + (n instanceof Number c ? String.format(" %,d", c.longValue()) : ""));
    }
    return String.join(" + ", parts);
  }

  /** Generates the records of every source of job spec {@code spec} and drops them; measured. */
  static Cost cost(String spec) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] sink = new long[1];
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long n = generate(spec, r -> sink[0] += r.values().length);
    long t1 = System.nanoTime();
    long cpu1 = os.getProcessCpuTime();
    if (sink[0] < n) {
      throw new IllegalStateException("records without fields");
    }
    return new Cost(n, (t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9);
  }

  /** The key, event time and (keyed-window) value of each of the {@code events} records; not measured. */
  static Columns columns(String query, long events) {
    NexmarkQueries.Input input = NexmarkQueries.input(query);
    int size = Math.toIntExact(events);
    Columns c = new Columns(new long[size], new long[size],
        input == NexmarkQueries.Input.RECORDS ? new double[size] : null);
    int[] at = {0};
    generate(NexmarkQueries.spec(query, events, 1, "heap"), r -> {
      int i = at[0]++;
      if (input == NexmarkQueries.Input.RECORDS) {
        c.keys[i] = (Long) r.get(1); // {id, key, value, ts}
        c.values[i] = (Double) r.get(2);
        c.times[i] = (Long) r.get(3);
      } else {
        c.keys[i] = (Long) r.get(0); // {auction, bidder, price, channel, url, dateTime, extra}
        c.times[i] = (Long) r.get(5);
      }
    });
    return c;
  }

  private interface Consumer {
    void accept(Record r);
  }

  /** Reads every source of {@code spec} to its end, one after the other; the records read. */
  private static long generate(String spec, Consumer consumer) {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(spec));
    long n = 0;
    for (SourcePlan source : plan.stages().stream().flatMap(s -> s.operators().stream())
        .filter(SourcePlan.class::isInstance).map(SourcePlan.class::cast).toList()) {
      n += read(Connectors.source(source), consumer);
    }
    return n;
  }

  private static long read(SourceConnector source, Consumer consumer) {
    long n = 0;
    SplitOutput out = new SplitOutput() {
      @Override
      public void record(Record record) {
        consumer.accept(record);
      }

      @Override
      public void malformed(String raw, String reason) {
        throw new IllegalStateException("a generator made a malformed record: " + reason);
      }
    };
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      for (int read = reader.read(out, BATCH); read != SplitReader.END; read = reader.read(out, BATCH)) {
        n += read;
      }
    }
    return n;
  }
}
