package io.tributary.state.forst.store;

import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A test decorator that makes chosen operations fail with an {@link IOException}: the n-th put, get
 * or delete from now ({@link #failNth}), or each with a probability ({@link #failRandomly}). A
 * failure either happens before the delegate is called, or — {@link Timing#AFTER} — after it
 * succeeded, like a timeout whose request did reach the store ("failed halfway").
 */
public final class FaultyObjectStore extends io.tributary.state.store.ForwardingObjectStore {
  /** Which operations can fail. {@code putIfAbsent} counts as a put; {@code open}/{@code getBytes} as gets. */
  public enum Op { PUT, GET, DELETE }

  /** Whether an injected failure leaves the operation undone or done. */
  public enum Timing { BEFORE, AFTER }
  private final Map<Op, Integer> countdown = new EnumMap<>(Op.class);
  private final Map<Op, Integer> failures = new EnumMap<>(Op.class);
  private Random random;
  private double probability;
  private Timing timing = Timing.BEFORE;
  private volatile Runnable afterGet = () -> {};

  public FaultyObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** The {@code n}-th (1-based) {@code op} from now fails. */
  public synchronized FaultyObjectStore failNth(Op op, int n) {
    countdown.put(op, n);
    return this;
  }

  /** Every put, get and delete fails with {@code probability}, drawn from {@code random}. */
  public synchronized FaultyObjectStore failRandomly(Random random, double probability) {
    this.random = random;
    this.probability = probability;
    return this;
  }

  /** When injected failures happen relative to the real operation. */
  public synchronized FaultyObjectStore timing(Timing timing) {
    this.timing = timing;
    return this;
  }

  /** Runs {@code hook} after every successful {@code get(name, target)}, e.g. to wipe a cache under it. */
  public FaultyObjectStore afterGet(Runnable hook) {
    this.afterGet = hook;
    return this;
  }

  /** Stops injecting failures. */
  public synchronized FaultyObjectStore heal() {
    countdown.clear();
    random = null;
    return this;
  }

  /** How many failures were injected for {@code op}. */
  public synchronized int failures(Op op) {
    return failures.getOrDefault(op, 0);
  }

  @Override
  public void put(String name, Path file) throws IOException {
    run(Op.PUT, name, () -> {
      delegate.put(name, file);
      return null;
    });
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    run(Op.PUT, name, () -> {
      delegate.put(name, bytes);
      return null;
    });
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    return run(Op.PUT, name, () -> delegate.putIfAbsent(name, bytes));
  }

  @Override
  public void get(String name, Path target) throws IOException {
    run(Op.GET, name, () -> {
      delegate.get(name, target);
      afterGet.run();
      return null;
    });
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    return run(Op.GET, name, () -> delegate.getBytes(name));
  }

  @Override
  public InputStream open(String name) throws IOException {
    return run(Op.GET, name, () -> delegate.open(name));
  }

  @Override
  public void delete(String name) throws IOException {
    run(Op.DELETE, name, () -> {
      delegate.delete(name);
      return null;
    });
  }

  private <T> T run(Op op, String name, Call<T> call) throws IOException {
    Timing when = shouldFail(op) ? timing : null;
    if (when == Timing.BEFORE) {
      throw injected(op, name);
    }
    T result = call.run();
    if (when == Timing.AFTER) {
      throw injected(op, name);
    }
    return result;
  }

  private synchronized boolean shouldFail(Op op) {
    Integer n = countdown.get(op);
    boolean fail = false;
    if (n != null) {
      countdown.put(op, n - 1);
      fail = n == 1;
    }
    fail |= random != null && random.nextDouble() < probability;
    if (fail) {
      failures.merge(op, 1, Integer::sum);
    }
    return fail;
  }

  private static IOException injected(Op op, String name) {
    return new IOException("injected " + op + " failure for " + name);
  }

  private interface Call<T> {
    T run() throws IOException;
  }
}
