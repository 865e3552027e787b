package io.tributary.connectors.nexmark;

/** The Nexmark generator's random strings, built from char arrays (no formatting, no builders). */
final class NexmarkStrings {
  private static final int MIN_STRING_LENGTH = 3;

  private NexmarkStrings() {}

  /**
   * Between 3 and {@code maxLength - 1} letters, about one in 13 replaced by {@code special};
   * leading and trailing spaces trimmed.
   */
  static String nextString(NexmarkRandom random, int maxLength, char special) {
    int len = MIN_STRING_LENGTH + random.nextInt(maxLength - MIN_STRING_LENGTH);
    char[] chars = new char[len];
    for (int i = 0; i < len; i++) {
      chars[i] = random.nextInt(13) == 0 ? special : (char) ('a' + random.nextInt(26));
    }
    int start = 0;
    int end = len;
    while (start < end && chars[start] <= ' ') {
      start++;
    }
    while (end > start && chars[end - 1] <= ' ') {
      end--;
    }
    return new String(chars, start, end - start);
  }

  /** Exactly {@code length} letters, six per random int. */
  static String nextExactString(NexmarkRandom random, int length) {
    char[] chars = new char[length];
    int rnd = 0;
    int left = 0;
    for (int i = 0; i < length; i++) {
      if (left == 0) {
        rnd = random.nextInt() >>> 1;
        left = 6;
      }
      chars[i] = (char) ('a' + rnd % 26);
      rnd /= 26;
      left--;
    }
    return new String(chars);
  }

  /** Padding that brings a record of {@code currentSize} bytes to about {@code averageSize}. */
  static String nextExtra(NexmarkRandom random, int currentSize, int averageSize) {
    if (currentSize > averageSize) {
      return "";
    }
    int desired = averageSize - currentSize;
    int delta = (int) Math.round(desired * 0.2);
    int size = desired - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
    return nextExactString(random, size);
  }

  /** Four groups of four digits separated by spaces. */
  static String nextCreditCard(NexmarkRandom random) {
    char[] chars = new char[19];
    for (int group = 0; group < 4; group++) {
      int v = random.nextInt(10_000);
      int at = group * 5;
      for (int d = 3; d >= 0; d--) {
        chars[at + d] = (char) ('0' + v % 10);
        v /= 10;
      }
      if (group < 3) {
        chars[at + 4] = ' ';
      }
    }
    return new String(chars);
  }
}
