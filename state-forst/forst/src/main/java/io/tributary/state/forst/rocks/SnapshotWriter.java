package io.tributary.state.forst.rocks;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateSnapshot;
import io.tributary.state.forst.cache.FileCache;
import io.tributary.state.forst.registry.ContentNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The asynchronous half of a snapshot (contract C6): turns the local RocksDB checkpoints taken on
 * the task thread into durable objects. SSTs get content-derived names and are uploaded only when
 * no retained snapshot already references them and the store lacks them; private files and one
 * manifest per key group are written per snapshot. Files are registered in the
 * {@link io.tributary.state.forst.registry.SharedFileRegistry} before anything is uploaded (C8).
 */
final class SnapshotWriter {
  /**
   * A shard checkpoint taken on the task thread, waiting for upload; {@code files} completes with
   * the files of its manifest once they are durable.
   */
  record Taken(Shard shard, Path dir, CompletableFuture<List<ShardManifest.ShardFile>> files) {}

  /**
   * A shard snapshotted by its log: its manifest is the files of {@code base} (complete before the
   * write starts) and {@code log}, whose newest segment (if any) is in this snapshot's change-log
   * object.
   */
  record Logged(Shard shard, CompletableFuture<List<ShardManifest.ShardFile>> base,
      List<ShardManifest.LogSegment> log) {}

  /**
   * The change-log object of a snapshot: the new segments of every logged shard, concatenated;
   * {@code durable} completes when it is written.
   */
  record Changes(String name, byte[] bytes, CompletableFuture<Void> durable) {}

  /** A key group whose last manifest is referenced again: {@code manifest} may be loaded lazily. */
  interface Reused {
    int keyGroup();

    String manifestName();

    ShardManifest manifest();
  }

  /** Private files up to this size are kept inside the manifest. */
  static final int INLINE_LIMIT = 64 << 10;

  private final ForstEnvironment env;
  private final StateNames names;

  SnapshotWriter(ForstEnvironment env, StateNames names) {
    this.env = env;
    this.names = names;
  }

  StateSnapshot write(long checkpointId, KeyGroupRange range, List<Taken> taken, List<Logged> logged,
      Changes changes, List<Reused> reused) {
    String snapshotId = names.snapshotId(checkpointId, range);
    Map<Integer, String> manifests = new HashMap<>();
    Map<Shard, ShardManifest> planned = new HashMap<>();
    Set<String> objects = new LinkedHashSet<>();
    long stateBytes = 0;
    try {
      for (Taken t : taken) {
        ShardManifest m = plan(checkpointId, t);
        planned.put(t.shard(), m);
        manifests.put(t.shard().keyGroup(), names.manifest(checkpointId, t.shard().keyGroup()));
        objects.addAll(m.objects());
        stateBytes += m.stateBytes();
      }
      for (Logged l : logged) {
        ShardManifest m = new ShardManifest(l.shard().keyGroup(), checkpointId, l.base().join(), l.log());
        planned.put(l.shard(), m);
        manifests.put(l.shard().keyGroup(), names.manifest(checkpointId, l.shard().keyGroup()));
        objects.addAll(m.objects());
        stateBytes += m.stateBytes();
      }
      for (Reused r : reused) {
        ShardManifest m = r.manifest();
        manifests.put(r.keyGroup(), r.manifestName());
        objects.addAll(m.objects());
        stateBytes += m.stateBytes();
      }
      objects.addAll(manifests.values());
      Set<String> fresh = env.registry.register(snapshotId, objects);
      long uploaded = 0;
      if (changes.bytes().length > 0) {
        env.store.put(changes.name(), changes.bytes());
        uploaded += changes.bytes().length;
      }
      for (Taken t : taken) {
        uploaded += upload(t, planned.get(t.shard()), fresh);
      }
      List<Shard> written = new ArrayList<>(planned.keySet());
      Map<String, byte[]> manifestObjects = new java.util.LinkedHashMap<>();
      for (Shard shard : written) {
        manifestObjects.put(manifests.get(shard.keyGroup()), planned.get(shard).toJson());
      }
      env.store.putAll(manifestObjects); // one per changed key group: a local store syncs their directory once
      for (Shard shard : written) {
        shard.uploadEnded(manifests.get(shard.keyGroup()), planned.get(shard));
      }
      for (Taken t : taken) {
        t.files().complete(planned.get(t.shard()).files());
      }
      changes.durable().complete(null);
      env.bytesUploaded.add(uploaded);
      return new StateSnapshot(ForstStateBackendFactory.NAME, checkpointId, range, manifests, stateBytes, uploaded);
    } catch (IOException | RuntimeException e) {
      fail(taken, logged, changes, e);
      env.registry.release(snapshotId);
      throw new ForstStateException("snapshot " + checkpointId + " of " + names.job() + "/" + names.operator()
          + " for key groups " + range + " failed", e);
    } catch (Error e) {
      // the shards' futures must end even so: the next snapshots of these shards wait for them
      fail(taken, logged, changes, e);
      env.registry.release(snapshotId);
      throw e;
    } finally {
      taken.forEach(t -> deleteQuietly(t.dir()));
    }
  }

  /**
   * Marks a snapshot's shards failed: each will be materialized by the next snapshot, since what
   * this one would have made durable (files, a log segment) is not.
   */
  static void fail(List<Taken> taken, List<Logged> logged, Changes changes, Throwable cause) {
    changes.durable().completeExceptionally(cause);
    for (Taken t : taken) {
      t.files().completeExceptionally(cause);
      t.shard().uploadEnded(null, null);
    }
    logged.forEach(l -> l.shard().uploadEnded(null, null));
  }

  private ShardManifest plan(long checkpointId, Taken t) throws IOException {
    List<ShardManifest.ShardFile> files = new ArrayList<>();
    int g = t.shard().keyGroup();
    for (Path p : list(t.dir())) {
      String local = p.getFileName().toString();
      long size = Files.size(p);
      if (local.startsWith("OPTIONS")) {
        continue; // the shard is opened with the process's options
      } else if (local.endsWith(".sst")) {
        ShardManifest.ShardFile known = t.shard().durableSst(local);
        String object = known != null ? known.object() : ContentNames.forFile(names.sharedPrefix(), p);
        files.add(ShardManifest.ShardFile.stored(local, object, size, true));
      } else if (size <= INLINE_LIMIT) {
        files.add(new ShardManifest.ShardFile(local, null, size, false, Files.readAllBytes(p)));
      } else {
        files.add(ShardManifest.ShardFile.stored(local, names.privateFile(checkpointId, g, local), size, false));
      }
    }
    return new ShardManifest(g, checkpointId, files);
  }

  /** Uploads what the store lacks; returns the bytes uploaded. */
  private long upload(Taken t, ShardManifest m, Set<String> fresh) throws IOException {
    long bytes = 0;
    for (ShardManifest.ShardFile f : m.files()) {
      Path local = t.dir().resolve(f.local());
      if (f.inline() != null) {
        continue;
      } else if (!f.shared()) {
        env.store.put(f.object(), local);
        bytes += f.size();
      } else if (fresh.contains(f.object()) && !env.store.exists(f.object())) {
        env.store.put(f.object(), local);
        bytes += f.size();
        keepInCache(f.object(), local);
      }
    }
    return bytes;
  }

  /** Moves a just-uploaded SST into the file cache, so a restore in this process need not fetch it. */
  private void keepInCache(String object, Path local) {
    if (env.cache.contains(object)) {
      return;
    }
    try (FileCache.Handle h = env.cache.adopt(object, local)) {
      h.name();
    } catch (IOException | RuntimeException e) {
      // only an optimisation: the object is durable, a later restore downloads it
    }
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover in the local cache directory is harmless (C5)
    }
  }
}
