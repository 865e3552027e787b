package io.tributary.stream;

/**
 * How a record of an upsert stream says what it changes: a field {@value #FIELD} holding {@link
 * #INSERT} (the first result of its key), {@link #UPDATE} (a new result for a key seen before,
 * replacing the last one) or {@link #DELETE} (the key has no result any more: a group of an
 * aggregate over an upsert stream left without records). An upsert stream is keyed: the results of one key replace each other, so a reader keeps
 * the last record per key. Records of append-only streams carry no such field.
 */
public final class Changelog {
  /** The field naming a record's change. */
  public static final String FIELD = "_op";
  public static final String INSERT = "insert";
  public static final String UPDATE = "update";
  public static final String DELETE = "delete";

  private Changelog() {}
}
