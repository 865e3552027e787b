package io.tributary.state.forst.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Crash-safe local file writes: data goes to a temp file next to its target, is fsynced, and then
 * renamed atomically into place. Used by the local object store and the file cache.
 */
public final class LocalFiles {
  private LocalFiles() {}

  /** A fresh temp file name in {@code target}'s directory (which is created if missing). */
  public static Path tempFor(Path target) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    return dir.resolve(ObjectNames.TEMP_MARKER + UUID.randomUUID());
  }

  /** Copies {@code source} into a new fsynced temp file next to {@code target}. */
  public static Path copyToTemp(Path source, Path target) throws IOException {
    Path temp = tempFor(target);
    try {
      Files.copy(source, temp);
      fsync(temp);
      return temp;
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /** Writes {@code bytes} into a new fsynced temp file next to {@code target}. */
  public static Path writeTemp(byte[] bytes, Path target) throws IOException {
    Path temp = tempFor(target);
    try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        ch.write(buffer);
      }
      ch.force(true);
      return temp;
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /** Renames {@code temp} over {@code target} atomically and fsyncs the directory. */
  public static void commitReplacing(Path temp, Path target) throws IOException {
    moveReplacing(temp, target);
    syncDirectory(target.toAbsolutePath().getParent());
  }

  /** Renames {@code temp} over {@code target} atomically; deletes {@code temp} on failure. */
  public static void moveReplacing(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(temp);
      throw new IOException("cannot rename atomically into " + target
          + ": the directory must be on a local POSIX file system", e);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /** Forces a file's content to disk. */
  public static void fsync(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  /** Forces a directory entry change to disk (best effort where directories cannot be opened). */
  public static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Not supported on every platform; the rename itself is still atomic.
    }
  }
}
