package io.tributary.state.forst.bench;

import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.WindowState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Random;

/**
 * The window operator's hot path against one backend: get, put, get-then-put, and add without
 * reading ({@link WindowState#add}) of a 5-slot accumulator (like the window operator's) per (key,
 * window), over random keys.
 */
final class OpsBench {
  private OpsBench() {}

  /** A small window namespace: start and end. */
  record Win(long start, long end) {}

  static final StateCodec<Win> WIN = new StateCodec<>() {
    @Override
    public void write(Win w, DataOutput out) throws IOException {
      out.writeLong(w.start());
      out.writeLong(w.end());
    }

    @Override
    public Win read(DataInput in) throws IOException {
      return new Win(in.readLong(), in.readLong());
    }
  };

  static final StateCodec<long[]> ACC = new StateCodec<>() {
    @Override
    public void write(long[] v, DataOutput out) throws IOException {
      out.writeShort(v.length);
      for (long x : v) {
        out.writeLong(x);
      }
    }

    @Override
    public long[] read(DataInput in) throws IOException {
      long[] v = new long[in.readUnsignedShort()];
      for (int i = 0; i < v.length; i++) {
        v[i] = in.readLong();
      }
      return v;
    }
  };

  static void run(PrintStream out, String name, KeyedStateBackend b, int keys, int ops) {
    WindowState<Win, long[]> w = b.windowState("w", WIN, ACC, (into, delta) -> {
      for (int i = 0; i < into.length; i++) {
        into[i] += delta[i];
      }
    });
    Key[] ks = new Key[keys];
    for (int i = 0; i < keys; i++) {
      ks[i] = Key.of((long) i);
    }
    Win win = new Win(0, 10_000);
    Random r = new Random(3);
    long t0 = System.nanoTime();
    for (int i = 0; i < ops; i++) {
      b.setCurrentKey(ks[r.nextInt(keys)]);
      w.put(win, new long[] {i, i, i, i, i});
    }
    report(out, name, "put", ops, t0);
    t0 = System.nanoTime();
    long sink = 0;
    for (int i = 0; i < ops; i++) {
      b.setCurrentKey(ks[r.nextInt(keys)]);
      long[] acc = w.get(win);
      sink += acc == null ? 0 : acc[0];
    }
    report(out, name, "get", ops, t0);
    t0 = System.nanoTime();
    for (int i = 0; i < ops; i++) {
      b.setCurrentKey(ks[r.nextInt(keys)]);
      long[] acc = w.get(win);
      if (acc == null) {
        acc = new long[5];
      }
      acc[0]++;
      w.put(win, acc);
    }
    report(out, name, "get+put update", ops, t0);
    t0 = System.nanoTime();
    for (int i = 0; i < ops; i++) {
      b.setCurrentKey(ks[r.nextInt(keys)]);
      w.add(win, new long[] {1, i, 0, 0, 0});
    }
    report(out, name, "add", ops, t0);
    if (sink == 42) {
      out.println();
    }
  }

  private static void report(PrintStream out, String backend, String op, int ops, long t0) {
    double secs = (System.nanoTime() - t0) / 1e9;
    out.printf("%s window-state %s: %.0f ops/s%n", backend, op, ops / secs);
  }
}
