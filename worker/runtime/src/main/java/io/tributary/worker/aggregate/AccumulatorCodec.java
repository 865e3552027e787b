package io.tributary.worker.aggregate;

import io.tributary.state.StateCodec;
import io.tributary.worker.state.ValueCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Encodes an {@link Accumulator}: revision, pending flag, slot count, then per slot its count,
 * whether it holds a double, and the long or the double. When a slot keeps distinct values
 * ({@code count(DISTINCT x)}), the slot count carries the flag {@link #DISTINCT_SECTION} and the
 * slots are followed by the number of such slots, then per slot its index, its number of values
 * and the values ({@link ValueCodec}). Accumulators written before distinct values existed have no
 * flag and read as they were.
 */
public final class AccumulatorCodec implements StateCodec<Accumulator> {
  public static final AccumulatorCodec INSTANCE = new AccumulatorCodec();
  /** Set in the slot count when a section of distinct values follows the slots. */
  static final int DISTINCT_SECTION = 0x8000;

  @Override
  public void write(Accumulator acc, DataOutput out) throws IOException {
    out.writeLong(acc.revision);
    out.writeBoolean(acc.pending);
    int distinctSlots = distinctSlots(acc);
    out.writeShort(acc.slots() | (distinctSlots > 0 ? DISTINCT_SECTION : 0));
    for (int i = 0; i < acc.slots(); i++) {
      out.writeLong(acc.count(i));
      out.writeBoolean(acc.inDouble(i));
      if (acc.inDouble(i)) {
        out.writeDouble(acc.doubleValue(i));
      } else {
        out.writeLong(acc.longValue(i));
      }
    }
    if (distinctSlots > 0) {
      writeDistinct(acc, distinctSlots, out);
    }
  }

  private static int distinctSlots(Accumulator acc) {
    int n = 0;
    for (int i = 0; acc.distinct != null && i < acc.slots(); i++) {
      n += acc.distinct[i] != null ? 1 : 0;
    }
    return n;
  }

  private static void writeDistinct(Accumulator acc, int slots, DataOutput out) throws IOException {
    out.writeShort(slots);
    for (int i = 0; i < acc.slots(); i++) {
      if (acc.distinct[i] != null) {
        out.writeShort(i);
        out.writeInt(acc.distinct[i].size());
        for (Object v : acc.distinct[i]) {
          ValueCodec.write(v, out);
        }
      }
    }
  }

  private static void readDistinct(Accumulator acc, DataInput in) throws IOException {
    int slots = in.readUnsignedShort();
    for (int s = 0; s < slots; s++) {
      java.util.Set<Object> values = acc.distinct(in.readUnsignedShort());
      for (int n = in.readInt(); n > 0; n--) {
        values.add(ValueCodec.read(in));
      }
    }
  }

  @Override
  public Accumulator read(DataInput in) throws IOException {
    long revision = in.readLong();
    boolean pending = in.readBoolean();
    int slotsAndFlag = in.readUnsignedShort();
    Accumulator acc = new Accumulator(slotsAndFlag & ~DISTINCT_SECTION);
    acc.revision = revision;
    acc.pending = pending;
    for (int i = 0; i < acc.slots(); i++) {
      acc.setCount(i, in.readLong());
      if (in.readBoolean()) {
        acc.setDouble(i, in.readDouble());
      } else {
        acc.setLong(i, in.readLong());
      }
    }
    if ((slotsAndFlag & DISTINCT_SECTION) != 0) {
      readDistinct(acc, in);
    }
    return acc;
  }

  @Override
  public Accumulator copy(Accumulator acc) {
    Accumulator c = new Accumulator(acc.slots());
    c.revision = acc.revision;
    c.pending = acc.pending;
    System.arraycopy(acc.cells, 0, c.cells, 0, acc.cells.length);
    for (int i = 0; acc.distinct != null && i < acc.slots(); i++) {
      if (acc.distinct[i] != null) {
        c.distinct(i).addAll(acc.distinct[i]);
      }
    }
    return c;
  }
}
