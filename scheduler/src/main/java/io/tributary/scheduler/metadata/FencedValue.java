package io.tributary.scheduler.metadata;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The value of an epoch-fenced item: the epoch of the last writer and the body it wrote. Stored
 * as the epoch in 8 big-endian bytes followed by the body.
 *
 * @param epoch the writer's fencing epoch, at least 1
 * @param body the payload, for example a checkpoint pointer as JSON (the record keeps its own copy)
 * @param version the item's version, for the next conditional write; 0 before it is written
 */
public record FencedValue(long epoch, byte[] body, long version) {
  public FencedValue {
    if (epoch < 1) {
      throw new IllegalArgumentException("epoch must be at least 1: " + epoch);
    }
    body = Objects.requireNonNull(body, "body").clone();
  }

  /** The body (a copy). */
  @Override
  public byte[] body() {
    return body.clone();
  }

  byte[] encode() {
    return ByteBuffer.allocate(8 + body.length).putLong(epoch).put(body).array();
  }

  static FencedValue decode(Item item) {
    byte[] value = item.value();
    if (value.length < 8) {
      throw new MetadataStoreException("item " + item.key() + " is not an epoch-fenced value", false);
    }
    return new FencedValue(ByteBuffer.wrap(value).getLong(), Arrays.copyOfRange(value, 8, value.length),
        item.version());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FencedValue that
        && epoch == that.epoch
        && version == that.version
        && Arrays.equals(body, that.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(epoch, version, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    return "FencedValue[epoch " + epoch + ", v" + version + ", " + body.length + " bytes]";
  }
}
