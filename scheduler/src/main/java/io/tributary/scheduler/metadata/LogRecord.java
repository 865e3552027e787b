package io.tributary.scheduler.metadata;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * One entry of the embedded store's log: a put of an item or the delete of a key.
 *
 * <p>On disk: {@code int length, int crc32c(payload), payload}, big-endian, where the payload is
 * {@code byte kind (1 put, 2 delete), long version, short keyLength, key (ASCII), int valueLength,
 * value}.
 *
 * @param item the item put, or for a delete the key and version deleted with an empty value
 */
record LogRecord(boolean delete, Item item) {
  static final int HEADER_BYTES = 8;
  static final int MAX_PAYLOAD_BYTES = 1 + 8 + 2 + Keys.MAX_KEY_LENGTH + 4 + Item.MAX_VALUE_BYTES;
  private static final byte PUT = 1;
  private static final byte DELETE = 2;
  private static final byte[] EMPTY = new byte[0];

  static LogRecord put(Item item) {
    return new LogRecord(false, item);
  }

  static LogRecord delete(String key, long version) {
    return new LogRecord(true, new Item(key, version, EMPTY));
  }

  /** Bytes this record takes in the log, header included. */
  int encodedSize() {
    return HEADER_BYTES + 1 + 8 + 2 + item.key().length() + 4 + item.size();
  }

  /** The record with its header, ready to append. */
  ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(encodedSize());
    out.position(HEADER_BYTES);
    out.put(delete ? DELETE : PUT).putLong(item.version());
    byte[] key = item.key().getBytes(StandardCharsets.US_ASCII);
    out.putShort((short) key.length).put(key);
    out.putInt(item.size()).put(item.value());
    int payloadLength = out.position() - HEADER_BYTES;
    CRC32C crc = new CRC32C();
    crc.update(out.array(), HEADER_BYTES, payloadLength);
    out.putInt(0, payloadLength).putInt(4, (int) crc.getValue());
    return out.flip();
  }

  /**
   * Decodes the payload of a record whose checksum already matched.
   *
   * @throws IllegalArgumentException if the payload does not describe a record
   */
  static LogRecord decode(ByteBuffer payload) {
    try {
      byte kind = payload.get();
      long version = payload.getLong();
      byte[] key = new byte[payload.getShort()];
      payload.get(key);
      byte[] value = new byte[payload.getInt()];
      payload.get(value);
      Item item = new Item(new String(key, StandardCharsets.US_ASCII), version, value);
      if (payload.hasRemaining() || (kind != PUT && kind != DELETE)) {
        throw new IllegalArgumentException("malformed log record");
      }
      return new LogRecord(kind == DELETE, item);
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw new IllegalArgumentException("malformed log record", e);
    }
  }

  /** Whether {@code crc} is the checksum of {@code length} bytes of {@code bytes} at {@code offset}. */
  static boolean checksumMatches(byte[] bytes, int offset, int length, int crc) {
    CRC32C actual = new CRC32C();
    actual.update(bytes, offset, length);
    return (int) actual.getValue() == crc;
  }
}
