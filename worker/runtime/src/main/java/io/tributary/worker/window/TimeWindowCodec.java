package io.tributary.worker.window;

import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Encodes a {@link TimeWindow} as two big-endian longs: start, end. */
final class TimeWindowCodec implements StateCodec<TimeWindow> {
  static final TimeWindowCodec INSTANCE = new TimeWindowCodec();

  @Override
  public void write(TimeWindow window, DataOutput out) throws IOException {
    out.writeLong(window.start());
    out.writeLong(window.end());
  }

  @Override
  public TimeWindow read(DataInput in) throws IOException {
    return new TimeWindow(in.readLong(), in.readLong());
  }
}
