package io.tributary.boot;

/** A store the server is configured with cannot be opened or reached; the message says which and why, in one line. */
public final class StoreUnreachableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The first line of what {@code e} says, for a one-line message: an object store's {@link
   * java.io.IOException} as it is (it names the object and what to fix), else the root cause's.
   */
  static String reason(Throwable e) {
    if (e instanceof java.io.IOException && e.getMessage() != null && !e.getMessage().isBlank()) {
      return e.getMessage().lines().findFirst().orElse(e.getMessage()); // the object store's own, saying what to fix
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = t.getMessage();
      if (m != null && !m.isBlank() && t.getCause() == null) {
        return m.lines().findFirst().orElse(m);
      }
    }
    String m = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return m.lines().findFirst().orElse(m);
  }
}
