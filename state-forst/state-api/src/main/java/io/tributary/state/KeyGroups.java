package io.tributary.state;

/**
 * Contract C1: the pure arithmetic of key groups, shared by the planner, the exchange and state.
 *
 * <ul>
 *   <li>{@code keyGroup = murmur3_32(serialized key) mod maxParallelism} (non-negative);
 *   <li>subtask {@code i} of {@code p} owns {@code [ceil(i*M/p), ceil((i+1)*M/p))};
 *   <li>the owner of key group {@code g} is {@code floor(g*p/M)}.
 * </ul>
 *
 * <p>Limits: {@code 1 <= p <= M <= 32768}. Every method is a pure function.
 */
public final class KeyGroups {
  /** Smallest default number of key groups. */
  public static final int MIN_MAX_PARALLELISM = 128;
  /** Largest number of key groups (a key group index must fit 15 bits). */
  public static final int UPPER_BOUND_MAX_PARALLELISM = 1 << 15;

  private KeyGroups() {}

  /** The key group of a serialized key. */
  public static int keyGroupFor(byte[] serializedKey, int maxParallelism) {
    return keyGroupForHash(Murmur3.hash32(serializedKey, 0, serializedKey.length), maxParallelism);
  }

  /** The key group of a key whose murmur3 hash is already known. */
  public static int keyGroupForHash(int murmurHash, int maxParallelism) {
    checkMaxParallelism(maxParallelism);
    return Math.floorMod(murmurHash, maxParallelism);
  }

  /** The range of key groups that subtask {@code index} of {@code parallelism} owns. */
  public static KeyGroupRange rangeFor(int maxParallelism, int parallelism, int index) {
    checkParallelism(maxParallelism, parallelism);
    if (index < 0 || index >= parallelism) {
      throw new IllegalArgumentException("subtask index " + index + " outside [0, " + parallelism + ")");
    }
    int start = ceilDiv((long) index * maxParallelism, parallelism);
    int end = ceilDiv((long) (index + 1) * maxParallelism, parallelism);
    return new KeyGroupRange(start, end);
  }

  /** The subtask (of {@code parallelism}) that owns key group {@code keyGroup}. */
  public static int subtaskFor(int keyGroup, int maxParallelism, int parallelism) {
    checkParallelism(maxParallelism, parallelism);
    if (keyGroup < 0 || keyGroup >= maxParallelism) {
      throw new IllegalArgumentException("key group " + keyGroup + " outside [0, " + maxParallelism + ")");
    }
    return (int) ((long) keyGroup * parallelism / maxParallelism);
  }

  /**
   * Default number of key groups for a job whose parallelism may reach {@code maxOperatorParallelism}:
   * 1.5 x that bound rounded up to a power of two, within [128, 32768].
   */
  public static int defaultMaxParallelism(int maxOperatorParallelism) {
    if (maxOperatorParallelism < 1) {
      throw new IllegalArgumentException("parallelism bound must be >= 1, got " + maxOperatorParallelism);
    }
    long wanted = (long) Math.ceil(maxOperatorParallelism * 1.5);
    long pow2 = Long.highestOneBit(Math.max(1, wanted - 1)) << 1;
    if (wanted == 1) {
      pow2 = 1;
    }
    return (int) Math.min(UPPER_BOUND_MAX_PARALLELISM, Math.max(MIN_MAX_PARALLELISM, pow2));
  }

  static void checkMaxParallelism(int maxParallelism) {
    if (maxParallelism < 1 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
      throw new IllegalArgumentException(
          "maxParallelism must be in [1, " + UPPER_BOUND_MAX_PARALLELISM + "], got " + maxParallelism);
    }
  }

  static void checkParallelism(int maxParallelism, int parallelism) {
    checkMaxParallelism(maxParallelism);
    if (parallelism < 1 || parallelism > maxParallelism) {
      throw new IllegalArgumentException(
          "parallelism must be in [1, maxParallelism=" + maxParallelism + "], got " + parallelism);
    }
  }

  private static int ceilDiv(long a, int b) {
    return (int) ((a + b - 1) / b);
  }
}
