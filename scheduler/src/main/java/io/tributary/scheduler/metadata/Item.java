package io.tributary.scheduler.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One stored item: a key, the version of its current value, and the value's bytes.
 *
 * <p>Versions start at 1 when an item is created and grow by exactly 1 on every successful
 * {@link MetadataStore#put put}. A delete forgets the item, so a re-created item starts again at
 * 1: callers that need a number that never goes back (leases, fencing epochs) keep it in the
 * value and never delete the item.
 *
 * @param key a valid key, see {@link Keys}
 * @param version at least 1
 * @param value at most {@link #MAX_VALUE_BYTES} bytes; the record keeps its own copy
 */
public record Item(String key, long version, byte[] value) {
  /** Largest value a store accepts (DynamoDB's item limit is 400 KB, keys and names included). */
  public static final int MAX_VALUE_BYTES = 256 * 1024;

  public Item {
    Keys.check(key);
    if (version < 1) {
      throw new IllegalArgumentException("version must be at least 1: " + version);
    }
    value = checkValue(value).clone();
  }

  /** The value's bytes (a copy). */
  @Override
  public byte[] value() {
    return value.clone();
  }

  /** The value decoded as UTF-8, for values written from text or JSON. */
  public String valueAsString() {
    return new String(value, StandardCharsets.UTF_8);
  }

  /** The value's length in bytes, without copying it. */
  public int size() {
    return value.length;
  }

  /** Throws if {@code value} is null or too large; returns it otherwise. */
  static byte[] checkValue(byte[] value) {
    Objects.requireNonNull(value, "value");
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value of " + value.length + " bytes exceeds the limit of " + MAX_VALUE_BYTES);
    }
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Item that
        && key.equals(that.key)
        && version == that.version
        && Arrays.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, version, Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return "Item[" + key + " v" + version + ", " + value.length + " bytes]";
  }
}
