package io.tributary.state.forst.store;

/**
 * Rules for object names shared by every {@link io.tributary.state.store.ObjectStore} in this
 * module: a non-empty {@code /}-separated relative path whose segments are neither empty, {@code .}
 * nor {@code ..}, without backslashes or control characters, and without a segment starting with
 * {@value #TEMP_MARKER} (reserved for files being written).
 */
public final class ObjectNames {
  /** Prefix of temporary files that stores and caches write before an atomic rename. */
  public static final String TEMP_MARKER = ".tmp-";

  private ObjectNames() {}

  /**
   * Returns {@code name} if it is a valid object name.
   *
   * @throws IllegalArgumentException naming the offending name and the rule it breaks
   */
  public static String validate(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("object name must not be empty");
    }
    if (name.startsWith("/") || name.endsWith("/")) {
      throw invalid(name, "must not start or end with '/'");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '\\' || c < 0x20 || c == 0x7f) {
        throw invalid(name, "must not contain backslashes or control characters");
      }
    }
    for (String segment : name.split("/", -1)) {
      checkSegment(name, segment);
    }
    return name;
  }

  /** Returns {@code prefix} if it is empty or a valid name optionally followed by {@code /}. */
  public static String validatePrefix(String prefix) {
    if (prefix.isEmpty()) {
      return prefix;
    }
    validate(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    return prefix;
  }

  private static void checkSegment(String name, String segment) {
    if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
      throw invalid(name, "must not contain empty, '.' or '..' segments");
    }
    if (segment.startsWith(TEMP_MARKER)) {
      throw invalid(name, "segments starting with '" + TEMP_MARKER + "' are reserved");
    }
  }

  private static IllegalArgumentException invalid(String name, String rule) {
    return new IllegalArgumentException("invalid object name '" + name + "': " + rule);
  }
}
