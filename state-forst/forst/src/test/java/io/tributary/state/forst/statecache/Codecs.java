package io.tributary.state.forst.statecache;

import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Codecs for the cache tests, among them a mutable accumulator like the window operator's. */
final class Codecs {
  /** A window [start, end). */
  record Window(long start, long end) {}

  /** A mutable accumulator: callers change it in place and put it back. */
  static final class Acc {
    long count;
    long sum;

    Acc(long count, long sum) {
      this.count = count;
      this.sum = sum;
    }

    @Override
    public String toString() {
      return count + "/" + sum;
    }
  }

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

  static final StateCodec<Acc> ACC = new StateCodec<>() {
    @Override
    public void write(Acc a, DataOutput out) throws IOException {
      out.writeLong(a.count);
      out.writeLong(a.sum);
    }

    @Override
    public Acc read(DataInput in) throws IOException {
      return new Acc(in.readLong(), in.readLong());
    }

    @Override
    public Acc copy(Acc a) {
      return new Acc(a.count, a.sum);
    }
  };

  private Codecs() {}
}
