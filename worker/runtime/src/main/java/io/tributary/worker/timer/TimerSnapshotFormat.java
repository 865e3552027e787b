package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.Timer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bytes of a timer snapshot. Three versions, all starting with magic {@code "THTM"} and a
 * version byte:
 *
 * <p><b>Version 3</b> (written): the watermark (long), {@code maxParallelism} (int), the number of
 * sections (int), then the index, one entry per section: key group, number of timers, length in
 * bytes (three ints) and the time of the section's earliest timer (long); then the sections back to
 * back, in index order. A section holds the timers of one key group in time order as runs of
 * timers sharing time and namespace: the time (long), the namespace (a presence byte, then the
 * namespace codec's form), the number of keys (varint), then per key its serialized form (varint
 * length, bytes). A restore reads the index and keeps the sections of the key groups it owns
 * undecoded ({@link TimerSection}), decoding nothing else: O(key groups), whatever the number of
 * timers, not even a section's first timer until it is needed: the index's earliest times order
 * the sections until then. From a {@link TimerSnapshotSource} it reads only the fixed-size header
 * and the index (two ranged reads), and a section's bytes (one ranged read of exactly the
 * section) when its first timer is needed. From bytes in memory it keeps the sections as slices of
 * them; when they are less than half of the snapshot (rescaling), they are copied out of it (a
 * memory copy, no decoding) so the rest can be collected.
 *
 * <p><b>Version 2</b> (read only): as version 3 without the earliest times in the index (a section
 * starts with its earliest time). Read whole, then restored as version 3 from memory.
 *
 * <p><b>Version 1</b> (read only): the watermark, the number of timers (int), then per timer its
 * key (int length, bytes), time (long) and namespace (presence byte, codec's form). Read whole,
 * decoded eagerly.
 */
final class TimerSnapshotFormat {
  static final int MAGIC = 0x5448544D;
  static final byte V1 = 1;
  static final byte V2 = 2;
  static final byte V3 = 3;
  private static final Comparator<Timer> BY_TIME = Comparator.comparingLong(Timer::time);
  /** Magic, version, watermark, {@code maxParallelism}, number of sections (versions 2 and 3). */
  static final int HEADER = 4 + 1 + 8 + 4 + 4;
  private static final int V2_ENTRY = 12;
  private static final int V3_ENTRY = 20;

  private TimerSnapshotFormat() {}

  /** What a restore takes from one snapshot: decoded timers (version 1) or undecoded sections (versions 2, 3). */
  record Restored(long watermark, List<Timer> timers, List<TimerSection> sections) {}

  /**
   * Version 3 bytes of the live timers: {@code live} plus the timers still in {@code undecoded} that
   * are neither in {@code tombstones} nor among {@code live} (those were registered again). Decodes
   * and encodes one key group at a time, so the extra heap is that of one key group's timers.
   */
  @SuppressWarnings("unchecked")
  static <N> byte[] write(long watermark, int maxParallelism, Timer[] live, TimerSection[] undecoded,
      Set<Timer> tombstones, StateCodec<N> namespaceCodec) {
    List<Timer>[] liveByGroup = new List[maxParallelism];
    for (Timer t : live) {
      int kg = t.key().keyGroup(maxParallelism);
      if (liveByGroup[kg] == null) {
        liveByGroup[kg] = new ArrayList<>();
      }
      liveByGroup[kg].add(t);
    }
    List<TimerSection>[] sectionsByGroup = new List[maxParallelism];
    Set<Timer> liveSet = undecoded.length == 0 ? Set.of() : new HashSet<>(Arrays.asList(live));
    for (TimerSection s : undecoded) {
      if (sectionsByGroup[s.keyGroup()] == null) {
        sectionsByGroup[s.keyGroup()] = new ArrayList<>(1);
      }
      sectionsByGroup[s.keyGroup()].add(s);
    }
    Bytes body = new Bytes(64 + live.length * 16);
    Bytes index = new Bytes(64);
    int sections = 0;
    try (DataOutputStream out = new DataOutputStream(body); DataOutputStream idx = new DataOutputStream(index)) {
      for (int kg = 0; kg < maxParallelism; kg++) {
        List<Timer> timers = liveByGroup[kg] == null ? new ArrayList<>() : liveByGroup[kg];
        liveByGroup[kg] = null;
        if (sectionsByGroup[kg] != null) {
          for (TimerSection s : sectionsByGroup[kg]) {
            for (Timer t; (t = s.head()) != null; s.advance()) {
              if (!tombstones.contains(t) && !liveSet.contains(t)) {
                timers.add(t);
              }
            }
          }
        }
        if (timers.isEmpty()) {
          continue;
        }
        timers.sort(BY_TIME);
        int start = body.size();
        writeSection(timers, out, namespaceCodec);
        idx.writeInt(kg);
        idx.writeInt(timers.size());
        idx.writeInt(body.size() - start);
        idx.writeLong(timers.get(0).time());
        sections++;
      }
      Bytes all = new Bytes(HEADER + index.size() + body.size());
      DataOutputStream head = new DataOutputStream(all);
      head.writeInt(MAGIC);
      head.writeByte(V3);
      head.writeLong(watermark);
      head.writeInt(maxParallelism);
      head.writeInt(sections);
      all.write(index.buf, 0, index.size());
      all.write(body.buf, 0, body.size());
      return all.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize timers", e);
    }
  }

  /** Runs of equal time and namespace; {@code timers} sorted by time. */
  @SuppressWarnings("unchecked")
  private static <N> void writeSection(List<Timer> timers, DataOutputStream out, StateCodec<N> codec)
      throws IOException {
    Map<Object, List<Key>> runs = new LinkedHashMap<>();
    for (int i = 0, n = timers.size(); i < n; ) {
      long time = timers.get(i).time();
      int j = i;
      while (j < n && timers.get(j).time() == time) {
        runs.computeIfAbsent(new Namespace(timers.get(j).namespace()), x -> new ArrayList<>())
            .add(timers.get(j).key());
        j++;
      }
      for (Map.Entry<Object, List<Key>> run : runs.entrySet()) {
        Object namespace = ((Namespace) run.getKey()).value();
        out.writeLong(time);
        out.writeBoolean(namespace != null);
        if (namespace != null) {
          codec.write((N) namespace, out);
        }
        writeVarInt(out, run.getValue().size());
        for (Key key : run.getValue()) {
          writeVarInt(out, key.bytes().length);
          out.write(key.bytes());
        }
      }
      runs.clear();
      i = j;
    }
  }

  /** A namespace as a map key, null included. */
  private record Namespace(Object value) {}

  private static void writeVarInt(DataOutputStream out, int v) throws IOException {
    while ((v & ~0x7f) != 0) {
      out.writeByte((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.writeByte(v);
  }

  /**
   * Reads {@code data}: for versions 2 and 3 the index only, keeping the sections of the key groups
   * in {@code range} as slices of {@code data} (or of a copy of their part); for version 1 every
   * timer, keeping those whose key group is in {@code range}.
   *
   * @throws IOException when {@code data} is not a timer snapshot or is corrupt
   */
  static Restored read(byte[] data, StateCodec<?> namespaceCodec, KeyGroupRange range, int maxParallelism)
      throws IOException {
    DataInputStream in = new DataInputStream(new BytesIn(data));
    if (data.length < 5 || in.readInt() != MAGIC) {
      throw new IOException("not a timer snapshot");
    }
    byte version = in.readByte();
    long watermark = in.readLong();
    if (version == V1) {
      return new Restored(watermark, readV1(in, namespaceCodec, range, maxParallelism), List.of());
    }
    if (version != V2 && version != V3) {
      throw new IOException("unsupported timer snapshot version " + version);
    }
    List<IndexEntry> index = readIndex(in, version, readSectionCount(in, maxParallelism), maxParallelism);
    long end = index.isEmpty() ? HEADER : index.get(index.size() - 1).end();
    if (end != data.length) {
      throw new IOException("the sections end at byte " + end + ", the snapshot at byte " + data.length);
    }
    List<IndexEntry> owned = new ArrayList<>();
    long ownedBytes = 0;
    for (IndexEntry e : index) {
      if (range.contains(e.keyGroup())) {
        owned.add(e);
        ownedBytes += e.length();
      }
    }
    // owning a small part (rescaled): copy it, so the rest of the snapshot can be collected
    byte[] bytes = ownedBytes < data.length / 2 ? new byte[(int) ownedBytes] : data;
    int at = 0;
    List<TimerSection> sections = new ArrayList<>(owned.size());
    for (IndexEntry e : owned) {
      int start = (int) e.offset();
      // version 2 has no earliest time in its index: a section starts with it
      long earliest = version == V3 ? e.earliest() : ByteBuffer.wrap(data).getLong(start);
      if (bytes != data) {
        System.arraycopy(data, start, bytes, at, e.length());
        start = at;
        at += e.length();
      }
      sections.add(new TimerSection(SectionBytes.inMemory(bytes, start, e.length(), e.keyGroup()), e.timers(),
          earliest, namespaceCodec));
    }
    return new Restored(watermark, List.of(), sections);
  }

  /**
   * Reads the snapshot of {@code source}: for version 3 its header and index only (two ranged
   * reads), keeping the sections of the key groups in {@code range} unread, to be read when their
   * timers are needed; older versions (or anything shorter than a header) whole, as {@link
   * #read(byte[], StateCodec, KeyGroupRange, int)}.
   *
   * @throws IOException when the snapshot cannot be read, is not a timer snapshot, or its header or
   *     index is corrupt
   */
  static Restored read(TimerSnapshotSource source, StateCodec<?> namespaceCodec, KeyGroupRange range,
      int maxParallelism) throws IOException {
    byte[] header;
    try {
      header = source.read(0, HEADER);
    } catch (EOFException e) {
      return read(source.readAll(), namespaceCodec, range, maxParallelism); // an empty version 1 snapshot
    }
    DataInputStream in = new DataInputStream(new BytesIn(header));
    if (in.readInt() != MAGIC) {
      throw new IOException("not a timer snapshot");
    }
    byte version = in.readByte();
    if (version == V1 || version == V2) {
      return read(source.readAll(), namespaceCodec, range, maxParallelism);
    }
    if (version != V3) {
      throw new IOException("unsupported timer snapshot version " + version);
    }
    long watermark = in.readLong();
    int count = readSectionCount(in, maxParallelism);
    byte[] indexBytes = count == 0 ? new byte[0] : source.read(HEADER, count * V3_ENTRY);
    List<TimerSection> sections = new ArrayList<>();
    for (IndexEntry e : readIndex(new DataInputStream(new BytesIn(indexBytes)), V3, count, maxParallelism)) {
      if (range.contains(e.keyGroup())) {
        sections.add(new TimerSection(SectionBytes.ranged(source, e.offset(), e.length(), e.keyGroup()),
            e.timers(), e.earliest(), namespaceCodec));
      }
    }
    return new Restored(watermark, List.of(), sections);
  }

  /** One section as the index lists it, at {@code offset} of the snapshot; {@code earliest} in version 3 only. */
  private record IndexEntry(int keyGroup, int timers, long offset, int length, long earliest) {
    long end() {
      return offset + length;
    }
  }

  /** The rest of the header: its {@code maxParallelism}, checked, and the number of sections. */
  private static int readSectionCount(DataInputStream in, int maxParallelism) throws IOException {
    int snapshotMaxParallelism = in.readInt();
    if (snapshotMaxParallelism != maxParallelism) {
      throw new IOException("timers were snapshotted with " + snapshotMaxParallelism
          + " key groups, restored with " + maxParallelism);
    }
    int count = in.readInt();
    if (count < 0 || count > maxParallelism) {
      throw new IOException("corrupt section count " + count);
    }
    return count;
  }

  /** The index of {@code count} sections, whose offsets follow from the header and index sizes. */
  private static List<IndexEntry> readIndex(DataInputStream in, byte version, int count, int maxParallelism)
      throws IOException {
    long offset = HEADER + (long) count * (version == V3 ? V3_ENTRY : V2_ENTRY);
    List<IndexEntry> index = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int kg = in.readInt();
      int timers = in.readInt();
      int length = in.readInt();
      long earliest = version == V3 ? in.readLong() : Long.MIN_VALUE;
      if (kg < 0 || kg >= maxParallelism || timers <= 0 || length < Long.BYTES) {
        throw new IOException("corrupt index entry " + i);
      }
      index.add(new IndexEntry(kg, timers, offset, length, earliest));
      offset += length;
    }
    return index;
  }

  private static List<Timer> readV1(DataInputStream in, StateCodec<?> namespaceCodec, KeyGroupRange range,
      int maxParallelism) throws IOException {
    int n = in.readInt();
    List<Timer> mine = new ArrayList<>(Math.min(n, 1 << 20));
    for (int i = 0; i < n; i++) {
      byte[] keyBytes = new byte[in.readInt()];
      in.readFully(keyBytes);
      long time = in.readLong();
      Object namespace = in.readBoolean() ? namespaceCodec.read(in) : null;
      Key key = Key.fromBytes(keyBytes);
      if (range.contains(key.keyGroup(maxParallelism))) {
        mine.add(new Timer(key, namespace, time));
      }
    }
    if (in.available() != 0) {
      throw new IOException(in.available() + " trailing bytes: does the namespace codec match?");
    }
    mine.sort(BY_TIME);
    return mine;
  }

  /**
   * Version 1 bytes (as written before version 2), for tests of reading old snapshots.
   */
  @SuppressWarnings("unchecked")
  static <N> byte[] writeV1(long watermark, Timer[] timers, StateCodec<N> namespaceCodec) {
    Bytes bytes = new Bytes(64 + timers.length * 48);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(V1);
      out.writeLong(watermark);
      out.writeInt(timers.length);
      for (Timer t : timers) {
        byte[] key = t.key().bytes();
        out.writeInt(key.length);
        out.write(key);
        out.writeLong(t.time());
        out.writeBoolean(t.namespace() != null);
        if (t.namespace() != null) {
          namespaceCodec.write((N) t.namespace(), out);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** An unsynchronized byte sink (ByteArrayOutputStream locks on every write). */
  private static final class Bytes extends OutputStream {
    private byte[] buf;
    private int size;

    Bytes(int capacity) {
      buf = new byte[capacity];
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    int size() {
      return size;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }
  }

  /** An unsynchronized reader of a byte array (ByteArrayInputStream locks on every read). */
  private static final class BytesIn extends InputStream {
    private final byte[] buf;
    private int pos;

    BytesIn(byte[] buf) {
      this.buf = buf;
    }

    @Override
    public int read() {
      return pos < buf.length ? buf[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= buf.length) {
        return len == 0 ? 0 : -1;
      }
      int n = Math.min(len, buf.length - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return buf.length - pos;
    }
  }
}
