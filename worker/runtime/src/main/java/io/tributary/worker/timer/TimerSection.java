package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.Timer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A cursor over the still undecoded timers of one key group's section of a timer snapshot
 * (version 2 or 3 of {@link TimerSnapshotFormat}): timers in time order, decoded one at a time. It
 * starts knowing only the time of its first timer (from the index of a version 3 snapshot) and
 * touches the section's bytes ({@link SectionBytes}, shared with its {@link #copy() copies} and
 * never modified) when its {@link #head()} is first needed: {@link #headTime()} and {@link
 * #remaining()} never do. Then only the head is held as an object; the rest stays bytes.
 *
 * <p>Timers of one run (same time and namespace) share the namespace object decoded once for the run.
 *
 * @see TimerSnapshotFormat the layout of a section
 */
final class TimerSection {
  private final SectionBytes bytes;
  /** Time of the first timer, as the index says (checked when it is decoded). */
  private final long earliest;
  private final StateCodec<?> namespaceCodec;
  /** The section's bytes; null until the head is first needed. */
  private byte[] data;
  private int pos;
  private int end;
  /** Timers left, the head included. */
  private int left;
  /** Keys left in the current run after the head. */
  private int runLeft;
  private long runTime;
  private Object runNamespace;
  private Timer head;

  /** A cursor before the first of {@code count} timers, the earliest at {@code earliest}. */
  TimerSection(SectionBytes bytes, int count, long earliest, StateCodec<?> namespaceCodec) {
    if (count <= 0) {
      throw new IllegalArgumentException("a section holds at least one timer");
    }
    this.bytes = bytes;
    this.earliest = earliest;
    this.left = count;
    this.namespaceCodec = namespaceCodec;
  }

  private TimerSection(TimerSection s) {
    bytes = s.bytes;
    earliest = s.earliest;
    namespaceCodec = s.namespaceCodec;
    data = s.data;
    pos = s.pos;
    end = s.end;
    left = s.left;
    runLeft = s.runLeft;
    runTime = s.runTime;
    runNamespace = s.runNamespace;
    head = s.head;
  }

  /** An independent cursor at the same place (for a snapshot read on another thread); reads nothing. */
  TimerSection copy() {
    return new TimerSection(this);
  }

  /**
   * The earliest timer not taken yet; null when the section is exhausted. Reads the section's
   * bytes if no cursor over them did yet.
   *
   * @throws java.io.UncheckedIOException when they cannot be read
   */
  Timer head() {
    if (data == null) {
      load();
    }
    return head;
  }

  /** Time of the head ({@code Long.MAX_VALUE} when exhausted), without reading anything. */
  long headTime() {
    if (data == null) {
      return earliest;
    }
    return head == null ? Long.MAX_VALUE : head.time();
  }

  int keyGroup() {
    return bytes.keyGroup();
  }

  /** Timers not taken yet, the head included. */
  int remaining() {
    return left;
  }

  private void load() {
    data = bytes.data();
    pos = bytes.start();
    end = pos + bytes.length();
    head = decodeNext();
    if (head.time() != earliest) {
      throw corrupt("the first timer is at " + head.time() + ", the index says " + earliest, null);
    }
  }

  /** Drops the head and decodes the next timer. */
  void advance() {
    if (head() == null) {
      throw new IllegalStateException("section exhausted");
    }
    left--;
    head = left == 0 ? null : decodeNext();
    if (head == null && (pos != end || runLeft != 0)) {
      throw corrupt((end - pos) + " bytes left after the last timer: does the namespace codec match?", null);
    }
  }

  private Timer decodeNext() {
    try {
      if (runLeft == 0) {
        DataInputStream in = new DataInputStream(new Slice());
        runTime = in.readLong();
        runNamespace = in.readBoolean() ? namespaceCodec.read(in) : null;
        runLeft = readVarInt();
        if (runLeft <= 0) {
          throw corrupt("empty run", null);
        }
      }
      int length = readVarInt();
      if (length < 0 || length > end - pos) {
        throw corrupt("key length " + length + " beyond the section", null);
      }
      byte[] key = Arrays.copyOfRange(data, pos, pos + length);
      pos += length;
      runLeft--;
      return new Timer(Key.fromBytes(key), runNamespace, runTime);
    } catch (IOException | RuntimeException e) {
      throw e instanceof IllegalStateException ise ? ise : corrupt(String.valueOf(e.getMessage()), e);
    }
  }

  private int readVarInt() {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= end) {
        throw corrupt("truncated", null);
      }
      byte b = data[pos++];
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw corrupt("malformed varint", null);
  }

  private IllegalStateException corrupt(String why, Throwable cause) {
    return new IllegalStateException("corrupt timer snapshot (key group " + bytes.keyGroup() + "): " + why, cause);
  }

  /** Reads the section's bytes from {@code pos}, moving it; the end of the section is the end of input. */
  private final class Slice extends InputStream {
    @Override
    public int read() {
      return pos < end ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= end) {
        return len == 0 ? 0 : -1;
      }
      int n = Math.min(len, end - pos);
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
