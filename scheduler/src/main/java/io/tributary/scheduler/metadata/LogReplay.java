package io.tributary.scheduler.metadata;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * Reads the records of a log image and finds where its valid part ends.
 *
 * <p>A crash can tear only the record being appended, the last one: its header or payload is cut
 * short, its checksum fails, or the file system left zeros after it. Such a tail is dropped
 * (that write never returned to its caller). A bad record followed by anything but zeros is
 * corruption of data that was acknowledged, and is reported instead of being skipped.
 */
final class LogReplay {
  private LogReplay() {}

  /**
   * Hands every valid record from {@code start} on to {@code sink}, in order.
   *
   * @return the offset where the valid records end: the image's length unless the tail is torn
   * @throws MetadataStoreException if a bad record is followed by more data
   */
  static int replay(byte[] image, int start, Consumer<LogRecord> sink) {
    int offset = start;
    while (offset < image.length) {
      int end = recordEnd(image, offset);
      if (end < 0) {
        return tornTail(image, offset);
      }
      sink.accept(LogRecord.decode(
          ByteBuffer.wrap(image, offset + LogRecord.HEADER_BYTES, end - offset - LogRecord.HEADER_BYTES)));
      offset = end;
    }
    return offset;
  }

  /** The end of the valid record at {@code offset}, or -1 if it is not valid. */
  private static int recordEnd(byte[] image, int offset) {
    if (image.length - offset < LogRecord.HEADER_BYTES) {
      return -1;
    }
    ByteBuffer header = ByteBuffer.wrap(image, offset, LogRecord.HEADER_BYTES);
    int length = header.getInt();
    int crc = header.getInt();
    int payload = offset + LogRecord.HEADER_BYTES;
    if (length < 1 || length > LogRecord.MAX_PAYLOAD_BYTES || length > image.length - payload) {
      return -1;
    }
    if (!LogRecord.checksumMatches(image, payload, length, crc)) {
      return -1;
    }
    try {
      LogRecord.decode(ByteBuffer.wrap(image, payload, length));
    } catch (IllegalArgumentException e) {
      return -1;
    }
    return payload + length;
  }

  private static int tornTail(byte[] image, int offset) {
    if (reachesEnd(image, offset) || zerosFrom(image, offset + LogRecord.HEADER_BYTES)) {
      return offset;
    }
    throw new MetadataStoreException(
        "metadata log corrupt at byte " + offset + " of " + image.length
            + ": a bad record is followed by more data; restore the directory from a backup",
        false);
  }

  /**
   * How many records the torn tail from {@code offset} held: 0 if it is only zeros (space the file
   * system allocated), else 1 (the record whose append was cut).
   */
  static int recordsIn(byte[] image, int offset) {
    return zerosFrom(image, offset) ? 0 : 1;
  }

  /** Whether the record at {@code offset} claims to run up to or past the end of the image. */
  private static boolean reachesEnd(byte[] image, int offset) {
    if (image.length - offset < LogRecord.HEADER_BYTES) {
      return true;
    }
    long length = ByteBuffer.wrap(image, offset, 4).getInt();
    return length < 0 || offset + LogRecord.HEADER_BYTES + length >= image.length;
  }

  private static boolean zerosFrom(byte[] image, int offset) {
    for (int i = Math.min(offset, image.length); i < image.length; i++) {
      if (image[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
