package io.tributary.boot;

/** A store the server is configured with cannot be opened or reached; the message says which and why, in one line. */
public final class StoreUnreachableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The first line of what {@code e} says, for a one-line message. */
  static String reason(Throwable e) {
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
