package io.tributary.bench.flink;

/** The fields of a {@code datagen} record that {@code keyed-window} reads: what Tributary's exchange sends. */
public final class KeyValue {
  public long key;
  public double value;

  /** For Flink's POJO serializer. */
  public KeyValue() {}

  KeyValue(long key, double value) {
    this.key = key;
    this.value = value;
  }
}
