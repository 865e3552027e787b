package io.tributary.scheduler.metadata;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a {@link MetadataStore#query prefix query}.
 *
 * @param items matching items in ascending key order, at most the requested limit; possibly fewer,
 *     even none, while more follow
 * @param continuation where the next page starts; empty when there are no more items. Opaque to
 *     callers: pass it back to {@code query} with the same prefix.
 */
public record Page(List<Item> items, Optional<String> continuation) {
  public Page {
    items = List.copyOf(items);
    Objects.requireNonNull(continuation, "continuation");
  }

  /** Whether another page may follow. */
  public boolean hasMore() {
    return continuation.isPresent();
  }
}
