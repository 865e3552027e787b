package io.tributary.state.forst.rocks;

import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Small codecs for tests. */
final class TestCodecs {
  static final StateCodec<Long> LONG = new StateCodec<>() {
    @Override
    public void write(Long v, DataOutput out) throws IOException {
      out.writeLong(v);
    }

    @Override
    public Long read(DataInput in) throws IOException {
      return in.readLong();
    }
  };

  static final StateCodec<String> STRING = new StateCodec<>() {
    @Override
    public void write(String v, DataOutput out) throws IOException {
      out.writeUTF(v);
    }

    @Override
    public String read(DataInput in) throws IOException {
      return in.readUTF();
    }
  };

  /** A window [start, end) as in the window operator's TimeWindowCodec. */
  record Window(long start, long end) {}

  static final StateCodec<Window> WINDOW = new StateCodec<>() {
    @Override
    public void write(Window w, DataOutput out) throws IOException {
      out.writeLong(w.start());
      out.writeLong(w.end());
    }

    @Override
    public Window read(DataInput in) throws IOException {
      return new Window(in.readLong(), in.readLong());
    }
  };

  private TestCodecs() {}
}
