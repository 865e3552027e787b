package io.tributary.scheduler.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Unmodifiable, order-keeping, null-tolerant copies for the spec records. */
final class Copies {
  private Copies() {}

  static <K, V> Map<K, V> map(Map<K, V> map) {
    return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  static <T> List<T> list(List<T> list) {
    return list == null ? null : Collections.unmodifiableList(new ArrayList<>(list));
  }
}
