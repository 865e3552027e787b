package io.tributary.worker.join;

import io.tributary.state.StateCodec;
import io.tributary.stream.Record;
import io.tributary.worker.state.RecordCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a window join keeps per (key, window): the records of each side that fell into it, in
 * arrival order. Mutable; {@link #CODEC} copies it deeply enough (the lists, not the immutable
 * records).
 */
final class WindowRows {
  static final StateCodec<WindowRows> CODEC = new Codec();

  final List<Record> left;
  final List<Record> right;

  WindowRows() {
    this(new ArrayList<>(), new ArrayList<>());
  }

  private WindowRows(List<Record> left, List<Record> right) {
    this.left = left;
    this.right = right;
  }

  List<Record> side(int input) {
    return input == 0 ? left : right;
  }

  /** Adds every record of {@code other} (merging sessions). */
  void addAll(WindowRows other) {
    left.addAll(other.left);
    right.addAll(other.right);
  }

  private static final class Codec implements StateCodec<WindowRows> {
    @Override
    public void write(WindowRows rows, DataOutput out) throws IOException {
      RecordCodec.LIST.write(rows.left, out);
      RecordCodec.LIST.write(rows.right, out);
    }

    @Override
    public WindowRows read(DataInput in) throws IOException {
      List<Record> left = RecordCodec.LIST.read(in);
      return new WindowRows(left, RecordCodec.LIST.read(in));
    }

    @Override
    public WindowRows copy(WindowRows rows) {
      return new WindowRows(new ArrayList<>(rows.left), new ArrayList<>(rows.right));
    }
  }
}
