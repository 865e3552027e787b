package io.tributary.worker.state;

import io.tributary.state.StateCodec;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes records kept in keyed state (a join's rows, a top-N's candidates): the timestamp, the
 * field count, then per field its name (modified UTF-8) and its value ({@link ValueCodec}). Records
 * are immutable, so {@link #copy} returns them as they are. {@link #LIST} encodes a list of them.
 */
public final class RecordCodec implements StateCodec<Record> {
  public static final RecordCodec INSTANCE = new RecordCodec();
  /** A list of records: its size, then each record. Lists are copied shallowly (records are immutable). */
  public static final StateCodec<List<Record>> LIST = new ListCodec();

  private RecordCodec() {}

  @Override
  public void write(Record record, DataOutput out) throws IOException {
    out.writeLong(record.timestamp());
    Schema schema = record.schema();
    out.writeShort(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      out.writeUTF(schema.name(i));
      ValueCodec.write(record.values()[i], out);
    }
  }

  @Override
  public Record read(DataInput in) throws IOException {
    long timestamp = in.readLong();
    int n = in.readUnsignedShort();
    String[] names = new String[n];
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      names[i] = in.readUTF();
      values[i] = ValueCodec.read(in);
    }
    return new Record(Schema.of(names), values, timestamp);
  }

  private static final class ListCodec implements StateCodec<List<Record>> {
    @Override
    public void write(List<Record> records, DataOutput out) throws IOException {
      out.writeInt(records.size());
      for (Record r : records) {
        INSTANCE.write(r, out);
      }
    }

    @Override
    public List<Record> read(DataInput in) throws IOException {
      int n = in.readInt();
      List<Record> records = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        records.add(INSTANCE.read(in));
      }
      return records;
    }

    @Override
    public List<Record> copy(List<Record> records) {
      return new ArrayList<>(records);
    }
  }
}
