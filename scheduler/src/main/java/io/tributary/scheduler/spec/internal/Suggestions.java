package io.tributary.scheduler.spec.internal;

import java.util.Collection;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "Did you mean" hints for misspelt names. */
public final class Suggestions {
  private static final LevenshteinDistance DISTANCE = new LevenshteinDistance();

  private Suggestions() {}

  /**
   * The candidate closest to {@code wrong} by edit distance, if it is close enough to be a likely
   * typo (at most 2 edits, and fewer edits than half the word), else null.
   */
  public static String closest(String wrong, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = DISTANCE.apply(wrong.toLowerCase(), candidate.toLowerCase());
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    boolean close = bestDistance <= 2 && bestDistance * 2 < Math.max(wrong.length(), 2);
    return close ? best : null;
  }

  /** {@code "; did you mean 'x'?"} or {@code ""}. */
  public static String hint(String wrong, Collection<String> candidates) {
    String best = closest(wrong, candidates);
    return best == null ? "" : "; did you mean '" + best + "'?";
  }
}
