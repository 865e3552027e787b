package io.tributary.scheduler.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collection;
import java.util.function.Consumer;

/**
 * The files of an {@link EmbeddedMetadataStore} directory: {@code metadata.log}, an append-only
 * log of {@link LogRecord}s after an 8-byte magic, and {@code LOCK}, held while the store is open.
 *
 * <p>An append is written and forced to disk before it returns. A rewrite (compaction) writes the
 * live items to {@code metadata.log.compacting}, forces it, renames it over the log atomically
 * and forces the directory: a crash leaves either the old log or the new one, never a mix.
 * Not thread-safe: the store serialises writes.
 */
final class MetadataLog implements AutoCloseable {
  static final String LOG = "metadata.log";
  static final String COMPACTING = "metadata.log.compacting";
  static final String LOCK = "LOCK";
  private static final byte[] MAGIC = "TRBMETA1".getBytes(StandardCharsets.US_ASCII);

  private final Path dir;
  private final FileChannel lockChannel;
  private FileChannel log;
  private long size;
  private boolean broken;

  private MetadataLog(Path dir, FileChannel lockChannel) {
    this.dir = dir;
    this.lockChannel = lockChannel;
  }

  /**
   * Locks {@code dir} (creating it if needed), replays its log into {@code sink} and drops a torn
   * tail.
   *
   * @throws MetadataStoreException if another process holds the directory or the log is corrupt
   */
  static MetadataLog open(Path dir, Consumer<LogRecord> sink) {
    try {
      Files.createDirectories(dir);
      MetadataLog opened = new MetadataLog(dir, lock(dir));
      try {
        opened.recover(sink);
        return opened;
      } catch (RuntimeException | IOException e) {
        opened.close();
        throw e;
      }
    } catch (IOException e) {
      throw new MetadataStoreException("cannot open metadata directory " + dir + ": " + e, true, e);
    }
  }

  private static FileChannel lock(Path dir) throws IOException {
    FileChannel channel = FileChannel.open(
        dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return channel;
      }
    } catch (OverlappingFileLockException e) {
      // held by this process: fall through
    }
    channel.close();
    throw new MetadataStoreException("metadata directory " + dir + " is in use by another store", false);
  }

  private void recover(Consumer<LogRecord> sink) throws IOException {
    Files.deleteIfExists(dir.resolve(COMPACTING));
    Path path = dir.resolve(LOG);
    if (!Files.exists(path)) {
      replaceLog(ByteBuffer.wrap(MAGIC));
      return;
    }
    byte[] image = Files.readAllBytes(path);
    if (image.length < MAGIC.length || !Arrays.equals(image, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new MetadataStoreException(path + " is not a Tributary metadata log", false);
    }
    int[] kept = {0};
    int validEnd = LogReplay.replay(image, MAGIC.length, r -> {
      kept[0]++;
      sink.accept(r);
    });
    log = FileChannel.open(path, StandardOpenOption.WRITE);
    if (validEnd < image.length) {
      int dropped = image.length - validEnd;
      int records = LogReplay.recordsIn(image, validEnd);
      System.getLogger(MetadataLog.class.getName()).log(System.Logger.Level.WARNING, "metadata log " + path
          + ": dropped its last " + dropped + " bytes at offset " + validEnd + " (" + records + " incomplete record"
          + (records == 1 ? "" : "s") + ", a write that never completed; " + kept[0] + " records kept)");
      log.truncate(validEnd);
      log.force(true);
    }
    size = validEnd;
  }

  /**
   * Appends {@code record} and forces it to disk. On failure the log is cut back to where it was;
   * if even that fails, every later append throws a non-retryable {@link MetadataStoreException}
   * (reopening the store drops the torn record).
   */
  void append(LogRecord record) throws IOException {
    if (broken) {
      throw new MetadataStoreException("metadata log " + dir + " failed earlier; reopen the store", false);
    }
    ByteBuffer bytes = record.encode();
    try {
      log.position(size);
      while (bytes.hasRemaining()) {
        log.write(bytes);
      }
      log.force(false);
      size += record.encodedSize();
    } catch (IOException e) {
      cutBack(e);
      throw e;
    }
  }

  private void cutBack(IOException failure) {
    try {
      log.truncate(size);
    } catch (IOException e) {
      failure.addSuppressed(e);
      broken = true;
    }
  }

  /** Replaces the log by one holding exactly {@code live}, atomically. */
  void rewrite(Collection<Item> live) throws IOException {
    int bytes = MAGIC.length;
    for (Item item : live) {
      bytes += LogRecord.put(item).encodedSize();
    }
    ByteBuffer image = ByteBuffer.allocate(bytes).put(MAGIC);
    for (Item item : live) {
      image.put(LogRecord.put(item).encode());
    }
    replaceLog(image.flip());
  }

  private void replaceLog(ByteBuffer image) throws IOException {
    Path temp = dir.resolve(COMPACTING);
    long length = image.remaining();
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      while (image.hasRemaining()) {
        out.write(image);
      }
      out.force(true);
    }
    Files.move(temp, dir.resolve(LOG), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    forceDirectory();
    if (log != null) {
      log.close();
    }
    log = FileChannel.open(dir.resolve(LOG), StandardOpenOption.WRITE);
    size = length;
  }

  private void forceDirectory() throws IOException {
    try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
      directory.force(true);
    } catch (IOException e) {
      // some platforms (Windows) cannot open a directory; the rename is still atomic there
      if (Files.isDirectory(dir) && !System.getProperty("os.name", "").startsWith("Windows")) {
        throw e;
      }
    }
  }

  /** Bytes in the log, magic included. */
  long size() {
    return size;
  }

  @Override
  public void close() {
    try {
      if (log != null) {
        log.close();
      }
      lockChannel.close();
    } catch (IOException e) {
      throw new MetadataStoreException("cannot close metadata log in " + dir + ": " + e, false, e);
    }
  }
}
