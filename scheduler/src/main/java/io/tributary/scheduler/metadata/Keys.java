package io.tributary.scheduler.metadata;

/**
 * Rules for metadata keys and query prefixes, the same for every store.
 *
 * <p>A key is a path of at least two non-empty segments separated by {@code /}, for example
 * {@code projects/default/jobs/auction-activity} or {@code jobs/7f3a/checkpoints/latest}. Its
 * characters are printable ASCII ({@code !} to {@code ~}), so that byte order and {@link
 * String#compareTo} order agree in every store, and it is at most {@link #MAX_KEY_LENGTH} long.
 *
 * <p>The first two segments are the key's <em>group</em>. A query stays inside one group: its
 * prefix must start with a whole group followed by {@code /} ({@code projects/default/} or
 * {@code projects/default/jobs/a}), because the DynamoDB store keeps a group in one partition and
 * answers a prefix query with a Query on it, never a Scan. A two-segment key is its own group and
 * is reachable by {@code get} only.
 */
public final class Keys {
  /** Longest key, in characters (DynamoDB allows 1024 bytes for a sort key). */
  public static final int MAX_KEY_LENGTH = 1024;

  private Keys() {}

  /** Returns {@code key} if it is valid, else throws {@link IllegalArgumentException} saying why. */
  public static String check(String key) {
    checkCharacters(key, "key");
    String[] segments = key.split("/", -1);
    if (segments.length < 2) {
      throw new IllegalArgumentException("key needs at least two segments separated by '/': " + key);
    }
    for (String segment : segments) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("key has an empty segment: " + key);
      }
    }
    return key;
  }

  /**
   * Returns {@code prefix} if it is a valid query prefix (a whole group, {@code /}, then any
   * characters a key may hold), else throws {@link IllegalArgumentException} saying why.
   */
  public static String checkPrefix(String prefix) {
    checkCharacters(prefix, "prefix");
    int first = prefix.indexOf('/');
    int second = first < 0 ? -1 : prefix.indexOf('/', first + 1);
    if (first < 1 || second < first + 2) {
      throw new IllegalArgumentException(
          "a query prefix must start with two whole segments and '/', like 'projects/default/': "
              + prefix);
    }
    return prefix;
  }

  /** The group of a valid key or prefix: its first two segments, without the slash after them. */
  public static String group(String keyOrPrefix) {
    int first = keyOrPrefix.indexOf('/');
    int second = keyOrPrefix.indexOf('/', first + 1);
    return second < 0 ? keyOrPrefix : keyOrPrefix.substring(0, second);
  }

  private static void checkCharacters(String text, String what) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    if (text.length() > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException(what + " longer than " + MAX_KEY_LENGTH + " characters");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '!' || c > '~') {
        throw new IllegalArgumentException(
            what + " may hold only printable ASCII, found U+" + String.format("%04X", (int) c)
                + " at " + i + ": " + text);
      }
    }
  }
}
