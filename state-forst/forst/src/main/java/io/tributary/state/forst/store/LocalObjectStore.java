package io.tributary.state.forst.store;

import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An {@link ObjectStore} in a local directory: the embedded default. Object {@code a/b} is the file
 * {@code root/a/b}.
 *
 * <p>Guarantees: a write becomes visible atomically and durably (temp file in the same directory,
 * fsync, atomic rename, fsync of the directory), so readers never see a partial object;
 * {@link #putIfAbsent} is atomic across threads and processes on one host (a hard link, which fails
 * if the name exists); reading an absent object throws {@link NoSuchFileException}. Thread-safe.
 */
public final class LocalObjectStore implements ObjectStore {
  private final Path root;

  /** Opens (and creates if needed) the store rooted at {@code root}. */
  public LocalObjectStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
    try {
      Files.createDirectories(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create object store directory " + this.root
          + ": check that the path is writable", e);
    }
  }

  /** The directory that holds the objects. */
  public Path root() {
    return root;
  }

  @Override
  public void put(String name, Path file) throws IOException {
    Path target = resolve(name);
    Path temp = LocalFiles.copyToTemp(file, target);
    LocalFiles.commitReplacing(temp, target);
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    Path target = resolve(name);
    Path temp = LocalFiles.writeTemp(bytes, target);
    LocalFiles.commitReplacing(temp, target);
  }

  /** Each object is written and synced as by {@link #put(String, byte[])}; each directory is synced once, at the end. */
  @Override
  public void putAll(java.util.Map<String, byte[]> objects) throws IOException {
    java.util.Set<Path> dirs = new java.util.LinkedHashSet<>();
    for (java.util.Map.Entry<String, byte[]> e : objects.entrySet()) {
      Path target = resolve(e.getKey());
      LocalFiles.moveReplacing(LocalFiles.writeTemp(e.getValue(), target), target);
      dirs.add(target.toAbsolutePath().getParent());
    }
    dirs.forEach(LocalFiles::syncDirectory);
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    Path target = resolve(name);
    if (Files.exists(target)) {
      return false;
    }
    Path temp = LocalFiles.writeTemp(bytes, target);
    try {
      Files.createLink(target, temp);
      LocalFiles.syncDirectory(target.getParent());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A hard link (objects never change in place: a put renames a new file over the name), or a
   * copy where the file system cannot link.
   */
  @Override
  public void copy(String from, String to) throws IOException {
    Path source = existing(from);
    Path target = resolve(to);
    Path temp = LocalFiles.tempFor(target);
    try {
      Files.createLink(temp, source);
    } catch (java.nio.file.FileSystemException | UnsupportedOperationException e) {
      Files.copy(source, temp);
      LocalFiles.fsync(temp);
    }
    LocalFiles.commitReplacing(temp, target);
  }

  @Override
  public void get(String name, Path target) throws IOException {
    Path source = existing(name);
    Path temp = LocalFiles.copyToTemp(source, target.toAbsolutePath());
    LocalFiles.moveReplacing(temp, target);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A hard link (objects never change in place, and the caller promised not to change
   * {@code target}), or a copy where the file system cannot link (another file system).
   */
  @Override
  public void getShared(String name, Path target) throws IOException {
    Path source = existing(name);
    Path temp = LocalFiles.tempFor(target.toAbsolutePath());
    try {
      Files.createLink(temp, source);
    } catch (java.nio.file.FileSystemException | UnsupportedOperationException e) {
      get(name, target);
      return;
    }
    LocalFiles.moveReplacing(temp, target);
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    return Files.readAllBytes(existing(name));
  }

  @Override
  public byte[] getRange(String name, long offset, int length) throws IOException {
    byte[] bytes = new byte[length];
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(existing(name))) {
      long pos = offset;
      while (buf.hasRemaining()) {
        int n = ch.read(buf, pos);
        if (n < 0) {
          throw new java.io.EOFException(name + " ends before byte " + (offset + length));
        }
        pos += n;
      }
    }
    return bytes;
  }

  @Override
  public InputStream open(String name) throws IOException {
    return Files.newInputStream(existing(name));
  }

  @Override
  public boolean exists(String name) {
    return Files.isRegularFile(resolve(name));
  }

  @Override
  public long size(String name) throws IOException {
    Path file = resolve(name);
    try {
      return Files.size(file);
    } catch (NoSuchFileException e) {
      return -1;
    }
  }

  @Override
  public void delete(String name) throws IOException {
    Path file = resolve(name);
    Files.deleteIfExists(file);
    pruneEmptyParents(file.getParent());
  }

  /**
   * Removes the directories an object's deletion left empty, up to the root (checkpoints' {@code
   * chk-<n>/} directories would otherwise pile up). A directory another writer fills meanwhile is
   * not empty and stays; a writer that finds its directory gone creates it again.
   */
  private void pruneEmptyParents(Path dir) {
    for (Path d = dir; d != null && !d.equals(root) && d.startsWith(root); d = d.getParent()) {
      try {
        Files.delete(d);
      } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException e) {
        return;
      } catch (IOException e) {
        return; // best effort: an empty directory is harmless
      }
    }
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    ObjectNames.validatePrefix(prefix);
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
    if (!Files.isDirectory(start)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(start)) {
      return files.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith(ObjectNames.TEMP_MARKER))
          .map(this::nameOf)
          .filter(n -> n.startsWith(prefix))
          .sorted()
          .collect(Collectors.toList());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public String url() {
    return root.toUri().toString();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "LocalObjectStore[" + url() + "]";
  }

  private Path resolve(String name) {
    return root.resolve(ObjectNames.validate(name));
  }

  private Path existing(String name) throws IOException {
    Path file = resolve(name);
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no object '" + name + "' in " + url());
    }
    return file;
  }

  private String nameOf(Path file) {
    return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }
}
