package io.tributary.worker.operator;

import io.tributary.state.Key;

/** An event-time timer: due when the watermark reaches {@code time}. Unique per (key, namespace, time). */
public record Timer(Key key, Object namespace, long time) {
  // equals and hashCode written out: a record's generated ones go through method handles that the
  // JIT does not always inline, and timers are hash keys on every record's path

  @Override
  public boolean equals(Object o) {
    return o instanceof Timer t && t.time == time && t.key.equals(key) && java.util.Objects.equals(t.namespace,
        namespace);
  }

  @Override
  public int hashCode() {
    return (31 * key.hashCode() + java.util.Objects.hashCode(namespace)) * 31 + Long.hashCode(time);
  }
}
