package io.tributary.server;

import io.tributary.scheduler.lifecycle.InvalidRequestException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** The contract's paging: {@code pageSize} (default 50, at most 500) and an opaque {@code pageToken}. */
final class Pages {
  static final int DEFAULT_SIZE = 50;
  static final int MAX_SIZE = 500;

  private Pages() {}

  static int size(Integer pageSize) {
    if (pageSize == null) {
      return DEFAULT_SIZE;
    }
    if (pageSize < 1 || pageSize > MAX_SIZE) {
      throw new InvalidRequestException("pageSize", "must be between 1 and " + MAX_SIZE);
    }
    return pageSize;
  }

  /**
   * A page of an in-memory list as the API's list resource: {@code make} wraps the page's items,
   * {@code next} sets the token of the next page (the offset it starts at) when there is one.
   */
  static <T, L> L of(List<T> all, Integer pageSize, String pageToken, Function<List<T>, L> make,
      BiConsumer<L, String> next) {
    int size = size(pageSize);
    int from = 0;
    if (pageToken != null && !pageToken.isEmpty()) {
      try {
        from = Integer.parseInt(pageToken);
      } catch (NumberFormatException e) {
        from = -1;
      }
      if (from < 0 || from > all.size()) {
        throw new InvalidRequestException("pageToken", "is not a token this list returned");
      }
    }
    int to = Math.min(all.size(), from + size);
    L page = make.apply(all.subList(from, to));
    if (to < all.size()) {
      next.accept(page, String.valueOf(to));
    }
    return page;
  }
}
