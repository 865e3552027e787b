package io.tributary.bench.flink;

import io.tributary.stream.Record;

/** A {@code datagen} record {@code {id, key, value, ts}} as a Flink POJO. */
public final class Datum {
  public long id;
  public long key;
  public double value;
  public long ts;

  /** For Flink's POJO serializer. */
  public Datum() {}

  static Datum of(Record r) {
    Object[] v = r.values();
    Datum d = new Datum();
    d.id = (Long) v[0];
    d.key = (Long) v[1];
    d.value = (Double) v[2];
    d.ts = (Long) v[3];
    return d;
  }
}
