package io.tributary.scheduler.metadata;

/**
 * A fenced write came from an epoch older than the one already stamped on the item: the writer
 * lost its lease to a newer holder. Not retryable — the writer must stop acting as the holder.
 */
public class FencedException extends MetadataStoreException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final long writerEpoch;
  private final long currentEpoch;

  public FencedException(String key, long writerEpoch, long currentEpoch) {
    super("write to " + key + " with epoch " + writerEpoch + " refused: the item is fenced at epoch "
        + currentEpoch, false);
    this.key = key;
    this.writerEpoch = writerEpoch;
    this.currentEpoch = currentEpoch;
  }

  public String key() {
    return key;
  }

  public long writerEpoch() {
    return writerEpoch;
  }

  public long currentEpoch() {
    return currentEpoch;
  }
}
