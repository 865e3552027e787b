package io.tributary.connectors.datagen;

import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.GeneratorReader;
import io.tributary.connectors.internal.GeneratorSource;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.connectors.internal.GeneratorStart;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;

/**
 * A synthetic source of records {@code {id, key, value, ts}}: {@code id} the sequence number,
 * {@code key} a pseudo-random long in {@code [0, keys)}, {@code value} a pseudo-random double in
 * {@code [0, 1000)}, {@code ts} = {@code start + id * interval} (epoch ms). Record {@code n} is
 * a pure function of {@code (seed, start, n)}, so output is deterministic for a seed and start
 * whatever the splitting; split {@code i} of {@code n} generates ids {@code i, i+n, i+2n, ...},
 * below {@code count} when bounded. The start is fixed, or the wall clock's time when the job
 * started, carried by the splits ({@link GeneratorStart}).
 */
public final class DatagenSource extends GeneratorSource {
  /** The schema of every datagen record. */
  public static final Schema SCHEMA = Schema.of("id", "key", "value", "ts");

  private final long keys;
  private final long seed;
  private final long interval;

  /** A datagen source whose first record has event time {@code startTime}, on every run. */
  public DatagenSource(String sourceId, long count, long keys, long seed, long interval, long startTime) {
    this(sourceId, count, keys, seed, interval, GeneratorStart.fixed(startTime));
  }

  /**
   * @param count total records over all splits, or {@code Long.MAX_VALUE} for unbounded
   * @param start where event time starts
   */
  public DatagenSource(String sourceId, long count, long keys, long seed, long interval, GeneratorStart start) {
    super(sourceId, count, start);
    this.keys = keys;
    this.seed = seed;
    this.interval = interval;
  }

  /** Resumes at a {@link SplitReader#position()} of the split's reader: its next id. */
  @Override
  protected SplitReader reader(GeneratorSplit s, String position, long total, long firstTime) {
    return GeneratorReader.resume(s, position, total, id -> record(id, firstTime));
  }

  @Override
  protected java.util.function.LongUnaryOperator eventTimes(long firstTime) {
    return n -> firstTime + n * interval;
  }

  /** Record number {@code id} of a run whose first event time is {@code startTime}. */
  public Record record(long id, long startTime) {
    long h = mix(seed * 0x9E3779B97F4A7C15L + id);
    long key = Math.floorMod(h, keys);
    double value = (mix(h) >>> 11) * 0x1.0p-53 * 1000.0;
    return new Record(SCHEMA, new Object[] {id, key, value, startTime + id * interval}, Record.NO_TIMESTAMP);
  }

  /** SplitMix64's finalizer: a cheap, well-distributed bijection on longs. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
