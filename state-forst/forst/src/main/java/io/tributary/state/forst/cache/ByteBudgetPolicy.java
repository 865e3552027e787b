package io.tributary.state.forst.cache;

/** Over the limit once the cached files together exceed a fixed number of bytes. */
public final class ByteBudgetPolicy implements CacheLimitPolicy {
  private final long budgetBytes;

  /** A budget of {@code budgetBytes} (0 keeps only pinned files). */
  public ByteBudgetPolicy(long budgetBytes) {
    if (budgetBytes < 0) {
      throw new IllegalArgumentException("cache budget must not be negative: " + budgetBytes);
    }
    this.budgetBytes = budgetBytes;
  }

  /** The budget in bytes. */
  public long budgetBytes() {
    return budgetBytes;
  }

  @Override
  public boolean isOverLimit(long usedBytes, int files) {
    return usedBytes > budgetBytes;
  }

  @Override
  public String toString() {
    return "ByteBudgetPolicy[" + budgetBytes + " bytes]";
  }
}
