package io.tributary.state.heap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The object a heap snapshot writes per key group (stable: restores read what older versions wrote).
 *
 * <pre>
 * int   magic 0x54484B47 ("THKG")
 * byte  version, 1
 * int   key group
 * int   number of sections, one per state that has entries in the key group:
 *   UTF   state name
 *   byte  kind ({@link HeapStateKind#tag()})
 *   long  number of (key, namespace) entries
 *   int   length, then that many bytes: what {@link HeapState#write} wrote with the state's codecs
 * </pre>
 *
 * <p>Sections are length-prefixed so that they can be kept undecoded until the operator asks for
 * the state, which is when its codecs become known.
 */
final class HeapSnapshotFormat {
  private static final int MAGIC = 0x54484B47;
  private static final byte VERSION = 1;

  private HeapSnapshotFormat() {}

  /** The entries of one state in one key group, serialized but not decoded. */
  record Section(String name, HeapStateKind kind, long entries, byte[] bytes) {}

  /** Serializes the entries of {@code state} in key group {@code groupIndex} (on the task thread). */
  static Section section(String name, HeapState state, int groupIndex) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    state.write(groupIndex, out);
    out.flush();
    return new Section(name, state.kind(), state.entryCount(groupIndex), bytes.toByteArray());
  }

  /** Decodes {@code section} into {@code state}, which must be of the section's kind. */
  static void decodeInto(Section section, HeapState state, int groupIndex, int keyGroup, int maxParallelism)
      throws IOException {
    ByteArrayInputStream bytes = new ByteArrayInputStream(section.bytes());
    state.read(groupIndex, keyGroup, maxParallelism, new DataInputStream(bytes));
    if (bytes.available() != 0) {
      throw new IOException(bytes.available() + " bytes left over after decoding state '" + section.name()
          + "': do its codecs match the ones that wrote it?");
    }
  }

  static byte[] encode(int keyGroup, List<Section> sections) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(MAGIC);
    out.writeByte(VERSION);
    out.writeInt(keyGroup);
    out.writeInt(sections.size());
    for (Section s : sections) {
      out.writeUTF(s.name());
      out.writeByte(s.kind().tag());
      out.writeLong(s.entries());
      out.writeInt(s.bytes().length);
      out.write(s.bytes());
    }
    out.flush();
    return bytes.toByteArray();
  }

  /**
   * The sections of an object written by {@link #encode}.
   *
   * @throws IOException when the object is corrupt or belongs to another key group
   */
  static List<Section> decode(byte[] object, int keyGroup) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(object));
    if (in.readInt() != MAGIC) {
      throw new IOException("not a heap state object");
    }
    byte version = in.readByte();
    if (version != VERSION) {
      throw new IOException("unsupported heap state object version " + version);
    }
    int group = in.readInt();
    if (group != keyGroup) {
      throw new IOException("object holds key group " + group + ", expected " + keyGroup);
    }
    int n = in.readInt();
    List<Section> sections = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      HeapStateKind kind = HeapStateKind.fromTag(in.readByte());
      long entries = in.readLong();
      int length = in.readInt();
      if (length < 0 || length > in.available()) {
        throw new IOException("section '" + name + "' claims " + length + " bytes, " + in.available() + " left");
      }
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      sections.add(new Section(name, kind, entries, bytes));
    }
    if (in.available() != 0) {
      throw new IOException(in.available() + " trailing bytes");
    }
    return sections;
  }
}
