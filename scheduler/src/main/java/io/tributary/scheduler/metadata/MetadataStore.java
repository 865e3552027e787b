package io.tributary.scheduler.metadata;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The control plane's durable key-value store: projects, jobs, checkpoint pointers,
 * leases. Implementations: {@code EmbeddedMetadataStore} (one process, local disk) and {@code
 * DynamoMetadataStore}.
 *
 * <p>Every write is a single-item compare-and-set on the item's {@link Item#version() version};
 * there are no multi-item transactions (the DynamoDB test double has none). Anything larger —
 * {@link Lease leases}, {@link FencedWrites epoch-fenced pointers} — is built from these writes.
 *
 * <p>What a caller may rely on, for every implementation:
 *
 * <ul>
 *   <li>Reads are strongly consistent: a {@code get} or {@code query} after a write returns (at
 *       least) that write, from any thread.
 *   <li>A write that returned is durable; a write that threw {@link ConflictException} changed
 *       nothing. A write that threw another {@link MetadataStoreException} may or may not have
 *       happened — re-read before retrying.
 *   <li>Implementations are thread-safe.
 *   <li>Keys and prefixes follow {@link Keys}; a bad one is an {@link IllegalArgumentException}.
 * </ul>
 */
public interface MetadataStore extends AutoCloseable {
  /** The largest page {@link #query(String, Optional, int)} returns. */
  int MAX_PAGE_SIZE = 1000;

  /** The item at {@code key}, or empty if there is none. */
  Optional<Item> get(String key);

  /**
   * Writes {@code value} at {@code key} if the item's current version is {@code expectedVersion}.
   *
   * @param expectedVersion 0 if the item must not exist yet, else its current version
   * @return the new version: {@code expectedVersion + 1}
   * @throws ConflictException if the current version differs, naming both versions
   */
  long put(String key, byte[] value, long expectedVersion);

  /**
   * Deletes the item at {@code key} if its current version is {@code expectedVersion}.
   *
   * @param expectedVersion the item's current version, at least 1
   * @throws ConflictException if the item is gone or has another version
   */
  void delete(String key, long expectedVersion);

  /**
   * One page of the items whose keys start with {@code prefix}, in ascending key order.
   *
   * @param prefix a prefix accepted by {@link Keys#checkPrefix}
   * @param continuation empty for the first page, else the {@link Page#continuation()} of the
   *     previous page of the same prefix
   * @param limit the most items to return, 1 to {@link #MAX_PAGE_SIZE}
   */
  Page query(String prefix, Optional<String> continuation, int limit);

  /** All items under {@code prefix}, reading page after page; for small groups only. */
  default List<Item> queryAll(String prefix) {
    List<Item> all = new ArrayList<>();
    Optional<String> next = Optional.empty();
    do {
      Page page = query(prefix, next, MAX_PAGE_SIZE);
      all.addAll(page.items());
      next = page.continuation();
    } while (next.isPresent());
    return all;
  }

  /** Releases files, locks or connections; later calls throw {@link MetadataStoreException}. */
  @Override
  void close();

  /** Throws {@link IllegalArgumentException} unless {@code limit} is a valid page size. */
  static int checkLimit(int limit) {
    if (limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_PAGE_SIZE + ": " + limit);
    }
    return limit;
  }

  /** Throws {@link IllegalArgumentException} unless {@code expectedVersion} is 0 or more. */
  static long checkExpected(long expectedVersion) {
    if (expectedVersion < 0) {
      throw new IllegalArgumentException("expected version must be 0 or more: " + expectedVersion);
    }
    return expectedVersion;
  }
}
