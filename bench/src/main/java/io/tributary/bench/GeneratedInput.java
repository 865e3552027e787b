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
import io.tributary.stream.Record;
import java.lang.management.ManagementFactory;

/**
 * The input records of a query, made outside any job by the query's own source connector (built
 * from the query's spec, one split, in the order a job at parallelism 1 reads them): to measure
 * what generating them costs, and to keep the fields a plain loop reads.
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

  /** Generates the {@code events} records of query {@code query}'s input and drops them; measured. */
  static Cost cost(String query, long events) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] sink = new long[1];
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long n = generate(query, events, r -> sink[0] += r.values().length);
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
    generate(query, events, r -> {
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

  private static long generate(String query, long events, Consumer consumer) {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(NexmarkQueries.spec(query, events, 1, "heap")));
    SourcePlan sourcePlan = plan.stages().stream().flatMap(s -> s.operators().stream())
        .filter(SourcePlan.class::isInstance).map(SourcePlan.class::cast).findFirst().orElseThrow();
    SourceConnector source = Connectors.source(sourcePlan);
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
