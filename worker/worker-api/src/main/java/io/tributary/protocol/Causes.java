package io.tributary.protocol;

/** What a failure's chain of causes holds. */
public final class Causes {
  private Causes() {}

  /** Whether {@code t} or one of its causes is a {@code type}. */
  public static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  /** The innermost cause of {@code t} ({@code t} itself when it has none). */
  public static Throwable root(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }
}
