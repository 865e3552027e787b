package io.tributary.state.forst.rocks;

import io.tributary.state.forst.cache.FileCache;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Opens a key group's shard from its manifest (contract C7): fetches the shard's files in parallel,
 * SSTs through the {@link FileCache} (hard-linked into the shard directory, so a cached file costs
 * no copy) and private files straight from the object store, then opens RocksDB on them. Only the
 * files of this one key group are fetched.
 */
final class ShardRestorer {
  private final ForstEnvironment env;

  ShardRestorer(ForstEnvironment env) {
    this.env = env;
  }

  /**
   * Opens the shard of {@code manifest} in {@code dir}; it logs up to {@code logLimit} bytes (0:
   * none). {@code urgent}: a caller waits for this shard now, so its files are fetched on threads of
   * their own instead of queuing behind the prefetch of other shards.
   */
  Shard open(int keyGroup, String manifestName, ShardManifest manifest, Path dir, int logLimit, boolean urgent) {
    try {
      Files.createDirectories(dir);
      List<CompletableFuture<Void>> fetches = new ArrayList<>();
      java.util.concurrent.Executor pool = urgent ? env.urgentTransfers : env.transfers;
      for (ShardManifest.ShardFile f : manifest.files()) {
        fetches.add(CompletableFuture.runAsync(() -> fetch(f, dir.resolve(f.local())), pool));
      }
      CompletableFuture.allOf(fetches.toArray(new CompletableFuture<?>[0])).join();
    } catch (IOException | CompletionException e) {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      throw new ForstStateException("cannot fetch the files of key group " + keyGroup + " (manifest "
          + manifestName + ") from " + env.store.url(), cause);
    }
    Shard shard = Shard.open(env.rocks, env.shardCheckpoints, env.keyListings, env.applier, keyGroup, dir, manifestName, manifest,
        logLimit);
    try {
      for (ShardManifest.LogSegment seg : manifest.log()) {
        replay(shard, seg);
      }
    } catch (IOException | RuntimeException e) {
      shard.close();
      throw new ForstStateException("cannot replay the change log of key group " + keyGroup + " (manifest "
          + manifestName + ")", e);
    }
    return shard;
  }

  /**
   * Replays one log segment into {@code shard}. A segment's object holds the log of every key group
   * of one snapshot; only the segment's bytes are read (C7), locally when the object happens to be
   * cached.
   */
  private void replay(Shard shard, ShardManifest.LogSegment seg) throws IOException {
    if (!env.cache.contains(seg.object())) {
      byte[] bytes = env.store.getRange(seg.object(), seg.offset(), seg.length());
      env.logBytesRead.add(bytes.length);
      shard.replay(bytes, 0, bytes.length);
      return;
    }
    byte[] bytes = new byte[seg.length()];
    try (FileCache.Handle h = env.cache.acquire(seg.object());
        java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(h.path())) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
      long pos = seg.offset();
      while (buf.hasRemaining()) {
        int n = ch.read(buf, pos);
        if (n < 0) {
          throw new IOException("change log " + seg.object() + " ends before " + (seg.offset() + seg.length()));
        }
        pos += n;
      }
    }
    shard.replay(bytes, 0, bytes.length);
  }

  ShardManifest readManifest(String manifestName) {
    try {
      ShardManifest m = ShardManifest.fromJson(manifestName, env.store.getBytes(manifestName));
      return m.relocated(name -> SnapshotCopies.resolve(manifestName, name)); // a copy names its files relatively
    } catch (IOException e) {
      throw new ForstStateException("cannot read shard manifest " + manifestName + " from " + env.store.url(), e);
    }
  }

  /**
   * The manifests named {@code manifestNames} and every object they reference, read in parallel on
   * the transfer threads.
   *
   * @throws ForstStateException if a manifest cannot be read
   */
  List<String> objectsOf(Collection<String> manifestNames) {
    List<CompletableFuture<List<String>>> reads = new ArrayList<>();
    for (String name : new LinkedHashSet<>(manifestNames)) {
      reads.add(CompletableFuture.supplyAsync(() -> readManifest(name).objects(), env.transfers));
    }
    List<String> objects = new ArrayList<>(manifestNames);
    try {
      for (CompletableFuture<List<String>> read : reads) {
        objects.addAll(read.join());
      }
    } catch (CompletionException e) {
      throw e.getCause() instanceof ForstStateException f ? f : e;
    }
    return objects;
  }

  private void fetch(ShardManifest.ShardFile f, Path target) {
    try {
      if (f.inline() != null) {
        Files.write(target, f.inline());
      } else if (!f.shared()) {
        env.store.get(f.object(), target);
      } else {
        try (FileCache.Handle h = env.cache.acquire(f.object())) {
          linkOrCopy(h.path(), target);
        }
      }
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }

  private static void linkOrCopy(Path source, Path target) throws IOException {
    Files.deleteIfExists(target);
    try {
      Files.createLink(target, source);
    } catch (FileSystemException | UnsupportedOperationException e) {
      Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
