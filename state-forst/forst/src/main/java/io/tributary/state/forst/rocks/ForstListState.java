package io.tributary.state.forst.rocks;

import io.tributary.state.ListState;
import io.tributary.state.StateCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A list per key in one RocksDB value: elements each prefixed by their varint length. {@link #add}
 * is a RocksDB merge (the merge operator concatenates), so appending never reads the list.
 */
final class ForstListState<T> extends ForstState implements ListState<T> {
  private final StateCodec<T> codec;
  private final BytesOut element = new BytesOut(64);

  ForstListState(ForstKeyedStateBackend backend, String name, StateCodec<T> codec) {
    super(backend, name);
    this.codec = codec;
  }

  @Override
  public void add(T value) {
    Shard shard = atPrefix();
    BytesOut out = valueOut();
    appendElement(out, value);
    shard.merge(key().array(), key().size(), out.array(), out.size());
  }

  @Override
  public List<T> get() {
    Shard shard = atPrefixIfAny();
    if (!read(shard)) {
      return List.of();
    }
    BytesIn in = valueIn();
    List<T> out = new ArrayList<>();
    try {
      while (in.hasRemaining()) {
        int len = in.readVarInt();
        int end = in.position() + len;
        out.add(codec.read(in));
        if (in.position() != end) {
          throw new IOException("codec read " + (in.position() - end + len) + " bytes of a " + len + "-byte element");
        }
      }
    } catch (IOException e) {
      throw codecFailure("decode a list element", e);
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public void update(List<T> values) {
    if (values.isEmpty()) {
      clear();
      return;
    }
    Shard shard = atPrefix();
    BytesOut out = valueOut();
    for (T v : values) {
      appendElement(out, v);
    }
    put(shard, out);
  }

  @Override
  public void clear() {
    delete(atPrefixIfAny());
  }

  private void appendElement(BytesOut out, T value) {
    element.truncate(0);
    try {
      codec.write(value, element);
    } catch (IOException e) {
      throw codecFailure("encode a list element", e);
    }
    out.writeVarInt(element.size());
    out.write(element.array(), 0, element.size());
  }
}
