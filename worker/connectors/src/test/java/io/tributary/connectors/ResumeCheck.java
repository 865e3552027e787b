package io.tributary.connectors;

import io.tributary.connect.SplitReader;
import java.util.Random;
import java.util.function.Function;

/**
 * Seeded, randomly interrupted reads for resume tests: reads a split a random number of calls,
 * takes {@link SplitReader#position()}, closes the reader and opens a new one at that position,
 * until the split ends. The seed is printed and can be fixed with {@code -Dtributary.test.seed=N}.
 */
public final class ResumeCheck {
  private ResumeCheck() {}

  /** The base seed of this run: {@code tributary.test.seed} or a fresh one, printed. */
  public static long baseSeed(String test) {
    String fixed = System.getProperty("tributary.test.seed");
    long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
    System.out.println(test + ": seed " + seed + " (rerun with -Dtributary.test.seed=" + seed + ")");
    return seed;
  }

  /** Reads {@code reader} to its end without interruption, then closes it. */
  public static CollectingOutput uninterrupted(SplitReader reader, Random random) {
    CollectingOutput out = new CollectingOutput();
    try (reader) {
      while (reader.read(out, 1 + random.nextInt(16)) != SplitReader.END) {
        // until the end
      }
    }
    return out;
  }

  /**
   * Reads to the end through readers {@code open.apply(null)}, then {@code open.apply(position)}
   * after each random interruption.
   */
  public static CollectingOutput interrupted(Function<String, SplitReader> open, Random random) {
    CollectingOutput out = new CollectingOutput();
    String position = null;
    for (int reopen = 0; ; reopen++) {
      if (reopen > 100_000) {
        throw new AssertionError("no end after " + reopen + " reopens");
      }
      try (SplitReader reader = open.apply(position)) {
        int calls = random.nextInt(6);
        for (int i = 0; i < calls; i++) {
          int n = reader.read(out, 1 + random.nextInt(16));
          if (n == SplitReader.END) {
            return out;
          }
        }
        String next = reader.position();
        if (next == null) {
          throw new AssertionError("reader " + reader + " returned no position");
        }
        position = next;
      }
    }
  }
}
