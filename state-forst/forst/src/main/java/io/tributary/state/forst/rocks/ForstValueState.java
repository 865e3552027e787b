package io.tributary.state.forst.rocks;

import io.tributary.state.StateCodec;
import io.tributary.state.ValueState;

/** One value per key: the RocksDB key is the current key's prefix with an empty namespace. */
final class ForstValueState<T> extends ForstState implements ValueState<T> {
  private final StateCodec<T> codec;

  ForstValueState(ForstKeyedStateBackend backend, String name, StateCodec<T> codec) {
    super(backend, name);
    this.codec = codec;
  }

  @Override
  public T value() {
    Shard shard = atPrefixIfAny();
    return read(shard) ? decode(codec, valueIn()) : null;
  }

  @Override
  public void update(T value) {
    if (value == null) {
      clear();
      return;
    }
    Shard shard = atPrefix();
    put(shard, encode(codec, value));
  }

  @Override
  public void clear() {
    delete(atPrefixIfAny());
  }
}
