package io.tributary.scheduler.metadata;

/**
 * The store could not do what was asked. {@link #retryable()} tells whether the same call may
 * succeed later: true for an EXTERNAL fault (the disk, the network, DynamoDB throttling or
 * unavailability), false for an INTERNAL one (a corrupt log, a store already closed, a directory
 * held by another process).
 */
public class MetadataStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  public MetadataStoreException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  public MetadataStoreException(String message, boolean retryable) {
    this(message, retryable, null);
  }

  /** Whether repeating the same call may succeed. */
  public boolean retryable() {
    return retryable;
  }
}
