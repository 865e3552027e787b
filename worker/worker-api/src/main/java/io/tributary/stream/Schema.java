package io.tributary.stream;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ordered field names of a record. Schemas are interned: {@link #of} returns the same instance
 * for the same names, so code may cache a field's index per schema and compare schemas by
 * reference (a monomorphic inline cache for records from JSON sources).
 */
public final class Schema {
  private static final Map<List<String>, Schema> INTERNED = new ConcurrentHashMap<>();

  private final String[] names;
  private final Map<String, Integer> index;

  private Schema(String[] names) {
    this.names = names;
    this.index = new HashMap<>(names.length * 2);
    for (int i = 0; i < names.length; i++) {
      if (index.putIfAbsent(names[i], i) != null) {
        throw new IllegalArgumentException("duplicate field '" + names[i] + "' in " + Arrays.toString(names));
      }
    }
  }

  /** The interned schema with these field names, in this order. */
  public static Schema of(String... names) {
    return of(List.of(names));
  }

  public static Schema of(List<String> names) {
    Schema s = INTERNED.get(names);
    if (s != null) {
      return s;
    }
    return INTERNED.computeIfAbsent(List.copyOf(names), n -> new Schema(n.toArray(new String[0])));
  }

  /** The field's position, or -1 when the schema has no such field. */
  public int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  public int size() {
    return names.length;
  }

  public String name(int i) {
    return names[i];
  }

  public List<String> names() {
    return List.of(names);
  }

  @Override
  public String toString() {
    return Arrays.toString(names);
  }
}
