package io.tributary.state;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Turns state values into bytes and back. Backends that keep objects on the heap may never call it;
 * backends that keep bytes (RocksDB) call it on every access, so implementations must be fast and
 * compact. Encodings must be stable: durable state written by one version is read by the next.
 */
public interface StateCodec<T> {
  void write(T value, DataOutput out) throws IOException;

  T read(DataInput in) throws IOException;

  /**
   * A copy that shares no mutable part with {@code value}. Immutable values may return themselves
   * (the default).
   */
  default T copy(T value) {
    return value;
  }
}
