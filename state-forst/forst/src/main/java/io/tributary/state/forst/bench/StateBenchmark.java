package io.tributary.state.forst.bench;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.forst.store.LocalObjectStore;
import io.tributary.state.heap.HeapStateBackendFactory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * State micro-benchmarks ({@code tributary bench state}); prints figures, asserts nothing.
 *
 * <ul>
 *   <li>window-state get / put / get-then-put ("merge-style" update) / add per second, heap vs
 *       forst; then on forst over 1,000,000 keys with a state cache that holds them all, with the
 *       default one (a tenth of them), and with that and a block cache too small to hold any data,
 *       each with both caches' hit rates;
 *   <li>for {@code stateBytes} of state with 1% of keys changed between snapshots: snapshot time and
 *       bytes uploaded (full, then incremental);
 *   <li>time from restore until the first record's state access completes, local cache empty, for
 *       state of 100 MB and 2 GB in the object store (both scaled by {@code stateBytes / 1 GB}).
 * </ul>
 */
public final class StateBenchmark {
  static final int MAX_PARALLELISM = 128;
  static final int VALUE_BYTES = 100;
  static final long GB = 1L << 30;
  /** Keys (and operations of each kind) of {@link #runBeyondCaches}: ten times the default state cache. */
  static final long BEYOND_KEYS = 1_000_000;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);

  private StateBenchmark() {}

  /** Runs every benchmark with {@code stateBytes} of state (default 1 GB) under {@code workDir}. */
  public static void run(PrintStream out, long stateBytes, Path workDir) {
    try {
      runOps(out, workDir.resolve("ops"));
      runBeyondCaches(out, workDir.resolve("beyond"));
      runSnapshots(out, stateBytes, workDir.resolve("snapshot"));
      double scale = (double) stateBytes / GB;
      for (long size : new long[] {(long) (100L * (1 << 20) * scale), (long) (2 * GB * scale)}) {
        runRestore(out, size, workDir.resolve("restore-" + size));
      }
    } catch (Exception e) {
      throw new IllegalStateException("state benchmark failed: " + e, e);
    }
  }

  /** Command-line entry: {@code StateBenchmark [stateBytes] [workDir]}. */
  public static void main(String[] args) {
    long bytes = args.length > 0 ? Long.parseLong(args[0]) : GB;
    Path dir = Path.of(args.length > 1 ? args[1] : "target/state-bench");
    run(System.out, bytes, dir);
  }

  private static void runOps(PrintStream out, Path dir) {
    int keys = 100_000;
    int ops = 300_000;
    try (ForstStateBackendFactory forst = factory(dir)) {
      for (StateBackendFactory f : List.of(new HeapStateBackendFactory(), forst)) {
        try (KeyedStateBackend b = f.create("bench", "ops", ALL, MAX_PARALLELISM)) {
          OpsBench.run(out, f.name(), b, keys, ops);
        }
      }
    }
  }

  /**
   * The operations of {@link #runOps} over {@link #BEYOND_KEYS} keys on forst: in cache, beyond
   * the state cache, and beyond the block cache too (16 MiB, which the memtables charged to it
   * fill: no data block stays).
   */
  private static void runBeyondCaches(PrintStream out, Path dir) {
    record Shape(String name, long stateCacheEntries, long blockCacheBytes) {}
    for (Shape s : List.of(new Shape("in cache", 4 * BEYOND_KEYS, 256L << 20),
        new Shape("beyond the state cache", ForstConfig.DEFAULT_STATE_CACHE_ENTRIES, 256L << 20),
        new Shape("beyond both caches", ForstConfig.DEFAULT_STATE_CACHE_ENTRIES, 16L << 20))) {
      Path d = dir.resolve(s.name().replace(' ', '-'));
      try (ForstStateBackendFactory f = ForstStateBackendFactory.fromConfig(new ForstConfig(
          new LocalObjectStore(d.resolve("objects")), d.resolve("local"), 64 * GB, s.blockCacheBytes(), 128L << 20,
          s.stateCacheEntries()))) {
        try (KeyedStateBackend b = f.create("bench", "ops", ALL, MAX_PARALLELISM)) {
          OpsBench.run(out, "forst (" + s.name() + ")", b, (int) BEYOND_KEYS, (int) BEYOND_KEYS);
        }
        out.println("  " + f.metrics().describeCaches());
      }
    }
  }

  private static void runSnapshots(PrintStream out, long stateBytes, Path dir) throws Exception {
    int keys = keysFor(stateBytes);
    try (ForstStateBackendFactory f = factory(dir);
        KeyedStateBackend b = f.create("bench", "snap", ALL, MAX_PARALLELISM)) {
      Random r = new Random(1);
      fill(b, keys, 0, keys, r);
      long t0 = System.nanoTime();
      StateSnapshot full = b.snapshot(1).get();
      out.printf("forst full snapshot (%d keys, %d bytes of state): %.1f ms, %d bytes uploaded%n", keys,
          full.stateBytes(), ms(t0), full.uploadedBytes());
      for (int i = 0; i < keys / 100; i++) {
        fill(b, keys, r.nextInt(keys), 1, r);
      }
      t0 = System.nanoTime();
      KeyedSnapshotTimer timer = new KeyedSnapshotTimer(b);
      StateSnapshot inc = timer.snapshot(2);
      out.printf("forst incremental snapshot (1%% of keys changed): %.1f ms (%.1f ms on the task thread),"
          + " %d bytes uploaded of %d bytes of state%n", ms(t0), timer.syncMillis(), inc.uploadedBytes(),
          inc.stateBytes());
    }
  }

  private static void runRestore(PrintStream out, long stateBytes, Path dir) throws Exception {
    int keys = keysFor(stateBytes);
    StateSnapshot snap;
    try (ForstStateBackendFactory f = factory(dir)) {
      try (KeyedStateBackend b = f.create("bench", "restore", ALL, MAX_PARALLELISM)) {
        fill(b, keys, 0, keys, new Random(2));
        snap = b.snapshot(1).get();
      }
    }
    try (ForstStateBackendFactory fresh = factory(dir, "local-fresh")) {
      long t0 = System.nanoTime();
      try (KeyedStateBackend b = fresh.restore("bench", "restore", ALL, MAX_PARALLELISM, List.of(snap))) {
        ValueState<byte[]> v = b.valueState("v", BYTES);
        b.setCurrentKey(Key.of((long) keys / 2));
        byte[] value = v.value();
        double first = ms(t0);
        out.printf("forst restore of %d bytes in the object store: first record's state access after %.1f ms"
            + " (%d bytes downloaded, value %s)%n", snap.stateBytes(), first, fresh.metrics().bytesDownloaded(),
            value == null ? "missing" : "found");
      }
    }
  }

  static ForstStateBackendFactory factory(Path dir) {
    return factory(dir, "local");
  }

  private static ForstStateBackendFactory factory(Path dir, String local) {
    return ForstStateBackendFactory.fromConfig(new ForstConfig(new LocalObjectStore(dir.resolve("objects")),
        dir.resolve(local), 64 * GB, 256L << 20, 128L << 20));
  }

  private static int keysFor(long stateBytes) {
    return (int) Math.max(1000, Math.min(Integer.MAX_VALUE, stateBytes / (VALUE_BYTES + 20)));
  }

  private static void fill(KeyedStateBackend b, int keys, int from, int count, Random r) {
    ValueState<byte[]> v = b.valueState("v", BYTES);
    byte[] value = new byte[VALUE_BYTES];
    for (int i = from; i < from + count; i++) {
      r.nextBytes(value);
      b.setCurrentKey(Key.of((long) i));
      v.update(value);
    }
  }

  static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }

  static final StateCodec<byte[]> BYTES = new StateCodec<>() {
    @Override
    public void write(byte[] v, DataOutput out) throws IOException {
      out.writeShort(v.length);
      out.write(v);
    }

    @Override
    public byte[] read(DataInput in) throws IOException {
      byte[] b = new byte[in.readUnsignedShort()];
      in.readFully(b);
      return b;
    }
  };

  /** Measures the synchronous (task-thread) part of a snapshot separately. */
  private static final class KeyedSnapshotTimer {
    private final KeyedStateBackend backend;
    private double syncMillis;

    KeyedSnapshotTimer(KeyedStateBackend backend) {
      this.backend = backend;
    }

    StateSnapshot snapshot(long id) throws Exception {
      long t0 = System.nanoTime();
      var future = backend.snapshot(id);
      syncMillis = ms(t0);
      return future.get();
    }

    double syncMillis() {
      return syncMillis;
    }
  }
}
