package io.tributary.scheduler.metadata;

/**
 * A write that must be made by the holder of a lease was attempted by a process that no longer
 * holds it (its grant lapsed, or another holder took it). Not retryable: the process must stop
 * acting as the holder.
 */
public class LeaseLostException extends MetadataStoreException {
  private static final long serialVersionUID = 1L;

  public LeaseLostException(String message) {
    super(message, false);
  }
}
