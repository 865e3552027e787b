package io.tributary.connectors.nexmark;

import java.util.Random;

/**
 * {@link java.util.Random}'s exact algorithm (same sequence for the same seed) without its atomic
 * seed update: the generator reseeds per event and draws a dozen numbers, on one thread. Not
 * thread-safe.
 */
final class NexmarkRandom extends Random {
  private static final long MULTIPLIER = 0x5DEECE66DL;
  private static final long ADDEND = 0xBL;
  private static final long MASK = (1L << 48) - 1;

  private long state;

  NexmarkRandom() {
    super(0);
  }

  @Override
  public void setSeed(long seed) {
    state = (seed ^ MULTIPLIER) & MASK;
  }

  @Override
  protected int next(int bits) {
    state = (state * MULTIPLIER + ADDEND) & MASK;
    return (int) (state >>> (48 - bits));
  }

  /**
   * Seeds with {@code key} scrambled by SplitMix64's finalizer, so that nearby keys give
   * unrelated sequences (plain {@code setSeed} of consecutive keys gives correlated first draws).
   */
  void reseed(long key) {
    long z = (key ^ (key >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    setSeed(z ^ (z >>> 31));
  }

  /** A long in {@code [0, n)} the way the Nexmark generator draws them. */
  long nextBelow(long n) {
    return n < Integer.MAX_VALUE ? nextInt((int) n) : Math.abs(nextLong() % n);
  }
}
