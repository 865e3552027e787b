package io.tributary.state.forst.rocks;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Self-contained copies of forst snapshots (savepoints) and their way back.
 *
 * <p><b>Copy out.</b> {@link #copyTo} copies every object a snapshot references into a directory:
 *
 * <pre>
 * {dir}/state/{operator}/kg-{g}.json          the shard manifest of key group g
 * {dir}/state/{operator}/kg-{g}/{file}        its private files
 * {dir}/state/{operator}/shared/{sha256}.sst  its SSTs (content-named, stored once per operator)
 * {dir}/state/{operator}/log/{hash}.log       the change-log objects its log segments lie in
 * </pre>
 *
 * A copied manifest names its files relative to its own directory ({@code ./kg-3/MANIFEST-000005},
 * {@code ./shared/ab12….sst}), so the directory can be copied or moved as a whole and restored from
 * wherever it lies: {@link #resolve} turns such a name back into an object name.
 *
 * <p><b>Claim.</b> A backend restored from a copy (its manifests lie outside the job's
 * {@code {job}/state/} names) must not make its later snapshots reference the copy, which its
 * owner may delete at any time (like Flink's NO_CLAIM restore mode). So a restored key group is
 * first claimed, when its manifest is first needed (first access, or the backend's first
 * snapshot): its SSTs are copied to the job's shared names unless already there, its private files
 * and manifest under {@code {job}/state/{operator}/claim-{uuid}/}, all registered in the
 * {@link io.tributary.state.forst.registry.SharedFileRegistry} under the claim's id before they are
 * copied (so no release deletes an SST that is found and kept). Copies are server-side where the
 * store can ({@link io.tributary.state.store.ObjectStore#copy}).
 */
final class SnapshotCopies {
  /** The prefix of names relative to the manifest's directory. */
  static final String RELATIVE = "./";

  private final ForstEnvironment env;

  SnapshotCopies(ForstEnvironment env) {
    this.env = env;
  }

  /** {@code name} as an object name: relative names resolved against {@code manifestName}'s directory. */
  static String resolve(String manifestName, String name) {
    if (name == null || !name.startsWith(RELATIVE)) {
      return name;
    }
    int slash = manifestName.lastIndexOf('/');
    return (slash < 0 ? "" : manifestName.substring(0, slash + 1)) + name.substring(RELATIVE.length());
  }

  /**
   * Copies {@code snapshot}'s manifests and every object they reference under {@code dir}.
   *
   * @return the snapshot of the copy (same checkpoint, range and sizes), its manifests under {@code dir}
   */
  StateSnapshot copyTo(StateNames names, StateSnapshot snapshot, String dir) {
    String base = dir + "/state/" + names.operator() + "/";
    ShardRestorer restorer = new ShardRestorer(env);
    Set<String> sharedCopied = ConcurrentHashMap.newKeySet();
    Map<Integer, CompletableFuture<String>> copies = new LinkedHashMap<>();
    snapshot.manifests().forEach((g, manifestName) -> copies.put(g, CompletableFuture.supplyAsync(() -> {
      ShardManifest m = restorer.readManifest(manifestName);
      Map<String, String> relative = new HashMap<>();
      for (ShardManifest.ShardFile f : m.files()) {
        if (f.object() == null) {
          continue;
        }
        String rel = f.shared() ? "shared/" + fileName(f.object()) : "kg-" + g + "/" + f.local();
        relative.put(f.object(), RELATIVE + rel);
        if (!f.shared() || sharedCopied.add(rel)) {
          copy(f.object(), base + rel);
        }
      }
      for (ShardManifest.LogSegment s : m.log()) {
        String rel = logName(s.object());
        relative.put(s.object(), RELATIVE + rel);
        if (sharedCopied.add(rel)) {
          copy(s.object(), base + rel);
        }
      }
      String target = base + "kg-" + g + ".json";
      put(target, m.relocated(relative::get).toJson());
      return target;
    }, env.transfers)));
    Map<Integer, String> manifests = new HashMap<>();
    try {
      copies.forEach((g, f) -> manifests.put(g, f.join()));
    } catch (CompletionException e) {
      throw new ForstStateException("cannot copy snapshot " + snapshot.checkpointId() + " of " + names.job() + "/"
          + names.operator() + " to " + dir, e.getCause() != null ? e.getCause() : e);
    }
    return new StateSnapshot(snapshot.backend(), snapshot.checkpointId(), snapshot.range(), manifests,
        snapshot.stateBytes(), snapshot.uploadedBytes());
  }

  /** Whether {@code manifestName} lies outside the job's own state names (a copy, to be claimed). */
  static boolean isCopy(StateNames names, String manifestName) {
    return !manifestName.startsWith(names.job() + "/state/");
  }

  /** A claim of key groups restored from copies, for one restored backend. */
  static final class Claim {
    private final ForstEnvironment env;
    private final StateNames names;
    private final String prefix;
    private final String registryId;

    Claim(ForstEnvironment env, StateNames names, KeyGroupRange range) {
      this.env = env;
      this.names = names;
      this.prefix = names.job() + "/state/" + names.operator() + "/claim-" + UUID.randomUUID() + "/";
      this.registryId = prefix + range.start() + "-" + range.end();
    }

    /** The manifest a claimed key group gets. */
    String manifestName(int keyGroup) {
      return prefix + "kg-" + keyGroup + ".json";
    }

    /** The registry id of the claimed files. */
    String registryId() {
      return registryId;
    }

    /**
     * Copies key group {@code keyGroup}'s files from the copy's manifest {@code source} to the job's
     * names; returns the manifest that references them (written as {@link #manifestName}).
     */
    ShardManifest claim(int keyGroup, String source, ShardRestorer restorer) {
      ShardManifest copy = restorer.readManifest(source);
      Map<String, String> renamed = new HashMap<>();
      for (ShardManifest.ShardFile f : copy.files()) {
        if (f.object() != null) {
          renamed.put(f.object(), f.shared() ? names.sharedPrefix() + fileName(f.object())
              : prefix + "kg-" + keyGroup + "/" + f.local());
        }
      }
      for (ShardManifest.LogSegment s : copy.log()) {
        renamed.put(s.object(), prefix + logName(s.object()));
      }
      ShardManifest claimed = copy.relocated(renamed::get);
      String target = manifestName(keyGroup);
      List<String> objects = new ArrayList<>(claimed.objects());
      objects.add(target);
      env.registry.register(registryId, objects); // before the copies: no release deletes what is kept
      try {
        for (Map.Entry<String, String> e : renamed.entrySet()) {
          // SSTs and change-log objects may be there already (shared, or claimed for another key group)
          boolean sharable = e.getValue().startsWith(names.sharedPrefix()) || e.getValue().endsWith(".log");
          if (!sharable || !env.store.exists(e.getValue())) {
            env.store.copy(e.getKey(), e.getValue());
          }
        }
        env.store.put(target, claimed.toJson());
      } catch (IOException e) {
        throw new ForstStateException("cannot claim key group " + keyGroup + " restored from " + source, e);
      }
      return claimed;
    }
  }

  private void copy(String from, String to) {
    try {
      env.store.copy(from, to);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }

  private void put(String name, byte[] bytes) {
    try {
      env.store.put(name, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + name, e);
    }
  }

  /**
   * Where a change-log object goes in a copy or claim: named by a hash of its object name, since
   * the logs of several snapshots share file names ({@code chk-<n>/changes-<range>.log}) and one
   * object holds the segments of many key groups, copied once.
   */
  static String logName(String object) {
    try {
      byte[] h = java.security.MessageDigest.getInstance("SHA-256")
          .digest(object.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return "log/" + java.util.HexFormat.of().formatHex(h, 0, 16) + ".log";
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static String fileName(String object) {
    return object.substring(object.lastIndexOf('/') + 1);
  }
}
