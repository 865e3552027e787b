package io.tributary.worker.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The frames of the data plane, each behind a 4-byte length: a type byte, then its fields.
 *
 * <pre>
 *   HELLO  'H' job (utf) attempt (long) token (utf) sender worker (utf)   first frame, sender -> receiver
 *   OPEN   'O' channel (long)                                              sender -> receiver
 *   CREDIT 'C' channel (long) credits (int)                                receiver -> sender
 *   BUFFER 'D' channel (long) backlog (int) bytes...                       sender -> receiver
 *   PRIORITY_BARRIER 'P' channel (long) checkpoint (long) buffers (long)   sender -> receiver
 * </pre>
 *
 * <p>A priority barrier needs no credit and is handed to the receiving gate as soon as it is read;
 * it overtakes what the sender still holds back for credit, while TCP keeps every frame's order.
 */
final class Frames {
  static final byte HELLO = 'H';
  static final byte OPEN = 'O';
  static final byte CREDIT = 'C';
  static final byte BUFFER = 'D';
  static final byte PRIORITY_BARRIER = 'P';
  /** Largest frame accepted: an oversized buffer holds one big record. */
  static final int MAX_FRAME = 64 * 1024 * 1024;

  private Frames() {}

  static ByteBuf hello(ByteBufAllocator alloc, String job, long attempt, String token, String sender) {
    ByteBuf b = alloc.buffer();
    b.writeByte(HELLO);
    writeUtf(b, job);
    b.writeLong(attempt);
    writeUtf(b, token);
    writeUtf(b, sender);
    return b;
  }

  static ByteBuf open(ByteBufAllocator alloc, long channel) {
    return alloc.buffer(9).writeByte(OPEN).writeLong(channel);
  }

  static ByteBuf credit(ByteBufAllocator alloc, long channel, int credits) {
    return alloc.buffer(13).writeByte(CREDIT).writeLong(channel).writeInt(credits);
  }

  static ByteBuf buffer(ByteBufAllocator alloc, long channel, int backlog, byte[] data, int length) {
    ByteBuf b = alloc.buffer(13 + length);
    b.writeByte(BUFFER).writeLong(channel).writeInt(backlog).writeBytes(data, 0, length);
    return b;
  }

  static ByteBuf priorityBarrier(ByteBufAllocator alloc, long channel, long checkpointId, long buffers) {
    return alloc.buffer(25).writeByte(PRIORITY_BARRIER).writeLong(channel).writeLong(checkpointId).writeLong(buffers);
  }

  static void writeUtf(ByteBuf b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.writeShort(bytes.length).writeBytes(bytes);
  }

  static String readUtf(ByteBuf b) {
    int n = b.readUnsignedShort();
    String s = b.toString(b.readerIndex(), n, StandardCharsets.UTF_8);
    b.skipBytes(n);
    return s;
  }
}
