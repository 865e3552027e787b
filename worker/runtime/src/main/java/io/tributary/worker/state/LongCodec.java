package io.tributary.worker.state;

import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** A Long as eight big-endian bytes (timestamps as map keys, timer namespaces). */
public final class LongCodec implements StateCodec<Long> {
  public static final LongCodec INSTANCE = new LongCodec();

  private LongCodec() {}

  @Override
  public void write(Long value, DataOutput out) throws IOException {
    out.writeLong(value);
  }

  @Override
  public Long read(DataInput in) throws IOException {
    return in.readLong();
  }
}
