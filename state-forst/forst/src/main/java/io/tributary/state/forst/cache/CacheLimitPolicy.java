package io.tributary.state.forst.cache;

/**
 * Decides how much a {@link FileCache} may hold (a small policy seam, after ForSt's {@code CacheLimitPolicy}).
 * The cache asks after every change; while the policy says it is over its limit, the cache evicts
 * unpinned files, least recently used first. Pinned files are never evicted, so a cache may exceed
 * its limit while callers hold more than the budget. Implementations must be thread-safe and cheap.
 */
public interface CacheLimitPolicy {
  /** Whether a cache holding {@code usedBytes} in {@code files} files must evict. */
  boolean isOverLimit(long usedBytes, int files);

  /** The default: least recently used files go once the cache holds more than {@code budgetBytes}. */
  static CacheLimitPolicy bytes(long budgetBytes) {
    return new ByteBudgetPolicy(budgetBytes);
  }
}
