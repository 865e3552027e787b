package io.tributary.scheduler.master;

/**
 * What state a job starts from.
 *
 * @param mode latest completed checkpoint or savepoint, a named one, or explicitly no state
 * @param path for {@link Mode#PATH}: the checkpoint or savepoint, as printed when it completed
 */
public record RestorePolicy(Mode mode, String path) {
  public enum Mode { LATEST, PATH, NONE }

  public static final RestorePolicy LATEST = new RestorePolicy(Mode.LATEST, null);
  public static final RestorePolicy NONE = new RestorePolicy(Mode.NONE, null);

  /** {@code latest}, {@code none}, or a path. */
  public static RestorePolicy parse(String text) {
    String t = text.trim();
    if (t.equalsIgnoreCase("latest")) {
      return LATEST;
    }
    if (t.equalsIgnoreCase("none")) {
      return NONE;
    }
    if (t.isEmpty()) {
      throw new IllegalArgumentException("--restore needs latest, none, or the path of a checkpoint or savepoint");
    }
    return new RestorePolicy(Mode.PATH, t);
  }
}
