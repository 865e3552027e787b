package io.tributary.scheduler.metadata;

/**
 * A conditional write found another version than the caller expected: someone else wrote (or
 * deleted) the item since the caller read it. Not a fault: re-read, decide again, and retry the
 * write with the version just read (optimistic concurrency, an HTTP 412 for an {@code If-Match}).
 */
public class ConflictException extends MetadataStoreException {
  private static final long serialVersionUID = 1L;

  /** Stands for "unknown" in {@link #actualVersion()} when the store cannot tell. */
  public static final long UNKNOWN = -1;

  private final String key;
  private final long expectedVersion;
  private final long actualVersion;

  /**
   * @param expectedVersion what the caller named; 0 for "must not exist"
   * @param actualVersion what the store holds; 0 when the item does not exist, {@link #UNKNOWN}
   *     when the store cannot tell
   */
  public ConflictException(String key, long expectedVersion, long actualVersion) {
    this(key, expectedVersion, actualVersion, null);
  }

  /** As {@link #ConflictException(String, long, long)}, with the store's own failure as cause. */
  public ConflictException(String key, long expectedVersion, long actualVersion, Throwable cause) {
    super(describe(key, expectedVersion, actualVersion), true, cause);
    this.key = key;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }

  public String key() {
    return key;
  }

  public long expectedVersion() {
    return expectedVersion;
  }

  public long actualVersion() {
    return actualVersion;
  }

  private static String describe(String key, long expected, long actual) {
    return "conflict on " + key + ": expected " + version(expected) + ", found " + version(actual);
  }

  private static String version(long version) {
    if (version == 0) {
      return "no item";
    }
    return version == UNKNOWN ? "another version" : "version " + version;
  }
}
