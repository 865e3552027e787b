package io.tributary.worker.aggregate;

import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Encodes an {@link Accumulator}: revision, pending flag, slot count, then per slot its count,
 * whether it holds a double, and the long or the double.
 */
public final class AccumulatorCodec implements StateCodec<Accumulator> {
  public static final AccumulatorCodec INSTANCE = new AccumulatorCodec();

  @Override
  public void write(Accumulator acc, DataOutput out) throws IOException {
    out.writeLong(acc.revision);
    out.writeBoolean(acc.pending);
    out.writeShort(acc.slots());
    for (int i = 0; i < acc.slots(); i++) {
      out.writeLong(acc.counts[i]);
      out.writeBoolean(acc.inDouble[i]);
      if (acc.inDouble[i]) {
        out.writeDouble(acc.doubles[i]);
      } else {
        out.writeLong(acc.longs[i]);
      }
    }
  }

  @Override
  public Accumulator read(DataInput in) throws IOException {
    long revision = in.readLong();
    boolean pending = in.readBoolean();
    Accumulator acc = new Accumulator(in.readUnsignedShort());
    acc.revision = revision;
    acc.pending = pending;
    for (int i = 0; i < acc.slots(); i++) {
      acc.counts[i] = in.readLong();
      acc.inDouble[i] = in.readBoolean();
      if (acc.inDouble[i]) {
        acc.doubles[i] = in.readDouble();
      } else {
        acc.longs[i] = in.readLong();
      }
    }
    return acc;
  }

  @Override
  public Accumulator copy(Accumulator acc) {
    Accumulator c = new Accumulator(acc.slots());
    c.revision = acc.revision;
    c.pending = acc.pending;
    System.arraycopy(acc.counts, 0, c.counts, 0, acc.slots());
    System.arraycopy(acc.longs, 0, c.longs, 0, acc.slots());
    System.arraycopy(acc.doubles, 0, c.doubles, 0, acc.slots());
    System.arraycopy(acc.inDouble, 0, c.inDouble, 0, acc.slots());
    return c;
  }
}
