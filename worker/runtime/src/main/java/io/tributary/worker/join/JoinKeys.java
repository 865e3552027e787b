package io.tributary.worker.join;

import io.tributary.state.Key;

/** What joins need of their keys. */
final class JoinKeys {
  private JoinKeys() {}

  /** Whether a key field is null (or missing): such a record joins nothing, as SQL's {@code NULL = NULL} is not true. */
  static boolean hasNull(Key key, int fields) {
    for (int i = 0; i < fields; i++) {
      if (key.get(i) == null) {
        return true;
      }
    }
    return false;
  }
}
