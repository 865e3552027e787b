package io.tributary.server;

import io.tributary.control.InvalidRequestException;
import java.util.List;

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

  /** A page of an in-memory list whose page token is the offset of the page. */
  record Slice<T>(List<T> items, String nextPageToken) {}

  static <T> Slice<T> slice(List<T> all, Integer pageSize, String pageToken) {
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
    return new Slice<>(all.subList(from, to), to < all.size() ? String.valueOf(to) : null);
  }
}
