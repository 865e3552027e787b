package io.tributary.state.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Where durable state lives (contract C5): immutable objects by name. Implementations: a local
 * directory (the embedded default) and S3. Names are {@code /}-separated relative paths without
 * {@code ..}; an object, once written, never changes. Implementations are thread-safe.
 */
public interface ObjectStore extends AutoCloseable {
  /** Writes {@code name} from a local file; replaces nothing that a reader could observe half-written. */
  void put(String name, Path file) throws IOException;

  /** Writes {@code name} with {@code bytes}. */
  void put(String name, byte[] bytes) throws IOException;

  /**
   * Writes several objects, each as {@link #put(String, byte[])} would, and returns once all are
   * durable; a failure may leave some written. Stores may share the durability work among them (a
   * local store syncs each directory once, not once per object). The default puts them one after
   * another.
   */
  default void putAll(java.util.Map<String, byte[]> objects) throws IOException {
    for (java.util.Map.Entry<String, byte[]> e : objects.entrySet()) {
      put(e.getKey(), e.getValue());
    }
  }

  /**
   * Writes {@code name} only if it does not exist yet (S3: {@code If-None-Match: *}).
   *
   * @return false if an object of that name already existed (nothing was written)
   */
  boolean putIfAbsent(String name, byte[] bytes) throws IOException;

  /**
   * Writes {@code to} with the content of object {@code from} (created or replaced, like {@link #put}).
   * The default reads the object and writes it back; stores that can copy on the server (S3
   * {@code CopyObject}, a local hard link) override it, so the bytes never pass through this process.
   *
   * @throws java.nio.file.NoSuchFileException if {@code from} does not exist
   */
  default void copy(String from, String to) throws IOException {
    put(to, getBytes(from));
  }

  /** Downloads {@code name} into {@code target} (created or replaced). */
  void get(String name, Path target) throws IOException;

  /**
   * Like {@link #get}, for a caller that never changes {@code target} (it only reads it, or deletes
   * it): a store may then share the object's bytes with {@code target} instead of copying them, as
   * a local store does with a hard link. The default is {@link #get}.
   */
  default void getShared(String name, Path target) throws IOException {
    get(name, target);
  }

  /** The whole object. */
  byte[] getBytes(String name) throws IOException;

  /**
   * {@code length} bytes of {@code name} from {@code offset} (S3: a ranged GET), so a reader of one
   * part of an object need not download it all.
   *
   * @throws java.io.EOFException if the object ends before {@code offset + length}
   */
  default byte[] getRange(String name, long offset, int length) throws IOException {
    try (InputStream in = open(name)) {
      in.skipNBytes(offset);
      byte[] bytes = in.readNBytes(length);
      if (bytes.length < length) {
        throw new java.io.EOFException(name + " ends before byte " + (offset + length));
      }
      return bytes;
    }
  }

  /** Streams the object; the caller closes the stream. */
  InputStream open(String name) throws IOException;

  boolean exists(String name) throws IOException;

  /** Size in bytes, or -1 if absent. */
  long size(String name) throws IOException;

  /** Deletes {@code name}; deleting an absent object is not an error. */
  void delete(String name) throws IOException;

  /** Names starting with {@code prefix}, sorted. */
  List<String> list(String prefix) throws IOException;

  /** A readable location, such as {@code file:///data/objects} or {@code s3://bucket/prefix}. */
  String url();

  @Override
  void close();
}
