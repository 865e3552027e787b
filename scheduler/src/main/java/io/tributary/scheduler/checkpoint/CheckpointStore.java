package io.tributary.scheduler.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.checkpoint.CheckpointCodec;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.FencedValue;
import io.tributary.scheduler.metadata.FencedWrites;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Where a job's checkpoints are recorded (contract C9). Metadata objects live in the object store,
 * written once and never overwritten: {@code <job>/checkpoints/chk-<n>/_metadata} and
 * {@code <job>/savepoints/sp-<n>/_metadata}. The metadata store holds, under {@code jobs/<job>/}:
 * <ul>
 *   <li>{@code run}: the epoch of the latest run (each run of the job gets a larger one, which is
 *       also its sink attempt number), the attempt that runs (the run's epoch, unless a later control
 *       plane took the attempt over: {@link #adoptRun}), the largest sink parallelism any run used,
 *       and the epoch of the control-plane leader that began or took it (never an older one);
 *   <li>{@code latest}: the pointer to the latest completed checkpoint or savepoint, a fenced item
 *       (see {@link FencedWrites}) advanced by a conditional write naming the version the
 *       coordinator last wrote and its epoch, so a stale coordinator cannot move it;
 *   <li>{@code checkpoints/<n>} and {@code savepoints/<n>}: the retained ones, each with its
 *       {@link Summary} (entries of older versions have none).
 * </ul>
 *
 * <p>A savepoint is self-contained: its directory {@code <job>/savepoints/sp-<n>/}
 * holds copies of every object it references, and its metadata object names them relative to the
 * directory ({@code ./state/...}, {@code ./timers/...}), so the directory restores wherever it is
 * copied. {@link #load} resolves such names against the directory the metadata was read from.
 * Savepoints written by older versions name shared objects of the job instead
 * ({@link #isSelfContained} tells them apart).
 */
public final class CheckpointStore {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final String METADATA = "_metadata";

  private final String job;
  private final ObjectStore objects;
  private final MetadataStore metadata;
  private final LongSupplier controlEpoch;

  /** The latest-checkpoint pointer. */
  public record Pointer(long id, String kind, String path, long version) {}

  /** A new run of the job. */
  public record Run(long epoch, int previousMaxSinkParallelism) {}

  /** The prefix of object names that a savepoint's metadata gives relative to its directory. */
  static final String RELATIVE = "./";

  /**
   * A retained checkpoint or savepoint.
   *
   * @param summary what its entry records about it, or null for entries of older versions
   */
  public record Retained(long id, String kind, String path, Summary summary) {
    public Retained(long id, String kind, String path) {
      this(id, kind, path, null);
    }
  }

  /**
   * What a checkpoint's or savepoint's entry records besides its path. Each field is null when
   * unknown: entries of older versions lack the fields added since (they had at most trigger, state
   * size, duration, parallelism and completion time).
   *
   * @param trigger who took a savepoint ({@code user}, {@code stop}, {@code rollout}, as the
   *     control plane names it)
   * @param stateBytes size of the keyed state it references (its full size)
   * @param durationMillis from trigger to completion (for a savepoint: copies included)
   * @param parallelism the largest parallelism of its tasks
   * @param completedAtMillis wall-clock completion time (its pointer advanced): the trigger time plus
   *     the duration in entries of this version
   * @param triggeredAtMillis wall-clock time it was triggered
   * @param alignmentNanos the longest any task's barrier waited for its slowest input channel
   * @param incrementalBytes the keyed state its tasks wrote new for it: state files and change-log
   *     segments no earlier checkpoint references (contract C6); the rest is shared
   * @param uploadedBytes every byte written to checkpoint storage for it: the new keyed state, the
   *     timer objects, the in-flight records and the metadata object (a savepoint's copies of
   *     earlier files, server-side copies or hard links, are not counted)
   * @param inFlightRecords the records in flight its tasks stored (unaligned checkpoints; 0 for
   *     aligned ones)
   * @param inFlightBytes the size of the objects holding them
   */
  public record Summary(String trigger, Long stateBytes, Long durationMillis, Integer parallelism,
      Long completedAtMillis, Long triggeredAtMillis, Long alignmentNanos, Long incrementalBytes,
      Long uploadedBytes, Long inFlightRecords, Long inFlightBytes) {
    /** An entry of a version without in-flight records. */
    public Summary(String trigger, Long stateBytes, Long durationMillis, Integer parallelism, Long completedAtMillis,
        Long triggeredAtMillis, Long alignmentNanos, Long incrementalBytes, Long uploadedBytes) {
      this(trigger, stateBytes, durationMillis, parallelism, completedAtMillis, triggeredAtMillis, alignmentNanos,
          incrementalBytes, uploadedBytes, null, null);
    }
  }

  /** A metadata object as written: its path and size. */
  public record Written(String path, long bytes) {}

  public CheckpointStore(String job, ObjectStore objects, MetadataStore metadata) {
    this(job, objects, metadata, () -> 0);
  }

  /**
   * @param controlEpoch the epoch of the control-plane leader this store writes for (0 for a
   *     process alone on its store); it throws if the process no longer leads. A run begun under
   *     it is refused where a newer leader already began one, and every pointer advance asks it
   *     first, so a leader that lost its lease neither starts runs nor records checkpoints.
   */
  public CheckpointStore(String job, ObjectStore objects, MetadataStore metadata, LongSupplier controlEpoch) {
    this.job = job;
    this.objects = objects;
    this.metadata = metadata;
    this.controlEpoch = controlEpoch;
  }

  public ObjectStore objects() {
    return objects;
  }

  /**
   * Starts a run: takes the next epoch and fences the pointer with it, so coordinators of earlier
   * runs can no longer advance it.
   *
   * @param sinkParallelism the largest sink parallelism of the new run
   * @throws io.tributary.scheduler.metadata.FencedException if a newer control-plane leader began
   *     a run of the job
   */
  public Run beginRun(int sinkParallelism) {
    String key = prefix() + "run";
    while (true) {
      long leader = controlEpoch.getAsLong();
      Optional<Item> current = metadata.get(key);
      long epoch = 0;
      int maxSinks = 0;
      if (current.isPresent()) {
        JsonNode n = readJson(current.get().value());
        epoch = n.path("epoch").asLong();
        maxSinks = n.path("maxSinkParallelism").asInt();
        long stamped = n.path("controlEpoch").asLong(0);
        if (stamped > leader) {
          throw new io.tributary.scheduler.metadata.FencedException(key, leader, stamped);
        }
      }
      ObjectNode next = JSON.createObjectNode().put("epoch", epoch + 1).put("attempt", epoch + 1)
          .put("maxSinkParallelism", Math.max(maxSinks, sinkParallelism)).put("controlEpoch", leader);
      try {
        metadata.put(key, bytes(next), current.map(Item::version).orElse(0L));
        FencedWrites.fence(metadata, latestKey(), epoch + 1);
        return new Run(epoch + 1, maxSinks);
      } catch (ConflictException e) {
        // another run started meanwhile: take the next epoch
      }
    }
  }

  /**
   * Takes over attempt {@code attempt}, which workers still run though the control plane that began
   * it is gone: takes the next epoch and fences the pointer with it, as {@link #beginRun} does, so
   * the coordinator of the earlier control plane can no longer advance it, while the attempt (its
   * tasks and its sinks' attempt number) goes on.
   *
   * @return the run the new coordinator records checkpoints under (its epoch is the new one)
   * @throws io.tributary.scheduler.metadata.FencedException if {@code attempt} is not the job's
   *     latest attempt (another run began since), or a newer control-plane leader took the job
   */
  public Run adoptRun(long attempt) {
    String key = prefix() + "run";
    while (true) {
      long leader = controlEpoch.getAsLong();
      Optional<Item> current = metadata.get(key);
      if (current.isEmpty()) {
        throw new io.tributary.scheduler.metadata.FencedException(key, attempt, 0);
      }
      JsonNode n = readJson(current.get().value());
      long epoch = n.path("epoch").asLong();
      long running = n.path("attempt").asLong(epoch);
      int maxSinks = n.path("maxSinkParallelism").asInt();
      long stamped = n.path("controlEpoch").asLong(0);
      if (stamped > leader) {
        throw new io.tributary.scheduler.metadata.FencedException(key, leader, stamped);
      }
      if (running != attempt) {
        throw new io.tributary.scheduler.metadata.FencedException(key, attempt, running);
      }
      ObjectNode next = JSON.createObjectNode().put("epoch", epoch + 1).put("attempt", attempt)
          .put("maxSinkParallelism", maxSinks).put("controlEpoch", leader);
      try {
        metadata.put(key, bytes(next), current.get().version());
        FencedWrites.fence(metadata, latestKey(), epoch + 1);
        return new Run(epoch + 1, maxSinks);
      } catch (ConflictException e) {
        // changed meanwhile: look again
      }
    }
  }

  /**
   * Empties the pointer (a run that starts without state): {@code restore latest} then finds
   * nothing until this run completes a checkpoint.
   */
  public void clearLatest(long epoch) {
    controlEpoch.getAsLong();
    FencedWrites.write(metadata, latestKey(), epoch, new byte[0], latestVersion());
  }

  /** The latest completed checkpoint or savepoint, if any. */
  public Optional<Pointer> latest() {
    Optional<FencedValue> v = FencedWrites.read(metadata, latestKey());
    if (v.isEmpty() || v.get().body().length == 0) {
      return Optional.empty();
    }
    JsonNode n = readJson(v.get().body());
    return Optional.of(new Pointer(n.path("id").asLong(), n.path("kind").asText(), n.path("path").asText(),
        v.get().version()));
  }

  /** The pointer item's current version (0 if absent), for the first conditional advance. */
  public long latestVersion() {
    return FencedWrites.read(metadata, latestKey()).map(FencedValue::version).orElse(0L);
  }

  /** The metadata object of checkpoint or savepoint {@code id}. */
  public String metadataPath(String kind, long id) {
    return CheckpointMetadata.SAVEPOINT.equals(kind)
        ? job + "/savepoints/sp-" + id + "/" + METADATA
        : job + "/checkpoints/chk-" + id + "/" + METADATA;
  }

  /** The directory of savepoint {@code id}: every object it references lies under it. */
  public String savepointDirectory(long id) {
    return job + "/savepoints/sp-" + id;
  }

  /**
   * The metadata object a user names: a path as printed when it completed, with or without the
   * trailing {@code /_metadata}, relative to the checkpoint storage or starting with its URL.
   */
  public String resolve(String userPath) {
    String p = userPath;
    String url = objects.url();
    if (p.startsWith(url)) {
      p = p.substring(url.length());
    } else if (url.startsWith("file://") && p.startsWith(url.substring("file://".length()))) {
      p = p.substring(url.length() - "file://".length());
    }
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.endsWith("/" + METADATA) || p.equals(METADATA) ? p : p + "/" + METADATA;
  }

  /**
   * The checkpoint or savepoint whose metadata object is {@code path}; object names it gives
   * relative to its directory are resolved against the directory of {@code path}.
   */
  public CheckpointMetadata load(String path) {
    try {
      String dir = directoryOf(path);
      return CheckpointCodec.decode(objects.getBytes(path))
          .withObjectNames(n -> n.startsWith(RELATIVE) ? dir + n.substring(RELATIVE.length()) : n);
    } catch (java.nio.file.NoSuchFileException | java.io.FileNotFoundException e) {
      String url = objects.url();
      throw new IllegalArgumentException("no checkpoint or savepoint at " + url + (url.endsWith("/") ? "" : "/")
          + path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint metadata " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Throws {@link io.tributary.scheduler.metadata.FencedException} if a newer run took the job over,
   * so a stale coordinator stops before it writes anything.
   */
  public void checkNotFenced(long epoch) {
    controlEpoch.getAsLong();
    Optional<FencedValue> v = FencedWrites.read(metadata, latestKey());
    if (v.isPresent() && v.get().epoch() > epoch) {
      throw new io.tributary.scheduler.metadata.FencedException(latestKey(), epoch, v.get().epoch());
    }
  }

  /**
   * Whether every object the metadata at {@code path} references ({@link #load loaded} from there)
   * lies in its directory: a self-contained savepoint, which shares no object with checkpoints.
   */
  public static boolean isSelfContained(CheckpointMetadata md, String path) {
    String dir = directoryOf(path);
    return md.objectNames().stream().allMatch(n -> n.startsWith(dir));
  }

  /**
   * Writes the immutable metadata object; refuses to replace one. Object names of a savepoint that
   * lie in its directory are written relative to it.
   */
  public String writeMetadata(CheckpointMetadata md) {
    return writeMetadataObject(md).path();
  }

  /** As {@link #writeMetadata}, also telling the size of what it wrote. */
  public Written writeMetadataObject(CheckpointMetadata md) {
    String path = metadataPath(md.kind(), md.id());
    String dir = directoryOf(path);
    CheckpointMetadata stored = md.isSavepoint()
        ? md.withObjectNames(n -> n.startsWith(dir) ? RELATIVE + n.substring(dir.length()) : n) : md;
    try {
      byte[] bytes = CheckpointCodec.encode(stored);
      if (!objects.putIfAbsent(path, bytes)) {
        throw new IllegalStateException(md.kind() + " " + md.id() + " already exists at " + path);
      }
      return new Written(path, bytes.length);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Advances the pointer to {@code md} if it is still at {@code expectedVersion} and carries no
   * newer epoch.
   *
   * @return the pointer's new version
   * @throws io.tributary.scheduler.metadata.FencedException if a newer run owns the job
   * @throws io.tributary.scheduler.metadata.LeaseLostException if this process no longer leads
   */
  public long advance(long epoch, CheckpointMetadata md, String path, long expectedVersion) {
    controlEpoch.getAsLong();
    ObjectNode body = JSON.createObjectNode().put("id", md.id()).put("kind", md.kind()).put("path", path);
    return FencedWrites.write(metadata, latestKey(), epoch, bytes(body), expectedVersion);
  }

  public void addRetained(CheckpointMetadata md, String path) {
    addRetained(md, path, null);
  }

  /** Records {@code md} as retained, with {@code summary} (may be null) in its entry. */
  public void addRetained(CheckpointMetadata md, String path, Summary summary) {
    String key = retainedKey(md.kind(), md.id());
    ObjectNode body = JSON.createObjectNode().put("id", md.id()).put("kind", md.kind()).put("path", path);
    if (summary != null) {
      body.set("summary", JSON.valueToTree(summary));
    }
    metadata.put(key, bytes(body), metadata.get(key).map(Item::version).orElse(0L));
  }

  /**
   * Deletes savepoint {@code id}: its entry, then every object in its directory (best effort: a
   * leftover is harmless, nothing references it). Only for a {@linkplain #isSelfContained
   * self-contained} savepoint; the caller checks.
   *
   * @return false if the job has no savepoint {@code id}
   */
  public boolean deleteSavepoint(long id) {
    String key = retainedKey(CheckpointMetadata.SAVEPOINT, id);
    Optional<Item> entry = metadata.get(key);
    if (entry.isEmpty()) {
      return false;
    }
    metadata.delete(key, entry.get().version());
    String dir = savepointDirectory(id) + "/";
    List<String> names = new ArrayList<>();
    names.add(dir + METADATA); // first: a directory without it restores nothing
    try {
      objects.list(dir).stream().filter(n -> !n.equals(dir + METADATA)).forEach(names::add);
    } catch (IOException e) {
      // left behind; nothing references it
    }
    deleteObjects(names);
    return true;
  }

  /**
   * Deletes what the job keeps in storage once it is deleted: its latest pointer, its retained
   * checkpoints' entries and every object under {@code <job>/} (checkpoints, state files, timers)
   * except, unless {@code savepoints}, its self-contained savepoints ({@code <job>/savepoints/}),
   * which a job created again under the name may restore. Savepoints of older versions share state
   * files with checkpoints, so they go with them. Best effort for objects.
   *
   * @return how many objects were deleted
   */
  public int deleteJobData(boolean savepoints) {
    List<Retained> keep = new ArrayList<>();
    for (Retained sp : savepoints()) {
      boolean selfContained;
      try {
        selfContained = isSelfContained(load(sp.path()), sp.path());
      } catch (RuntimeException e) {
        selfContained = false; // unreadable: it restores nothing
      }
      if (!savepoints && selfContained) {
        keep.add(sp);
      } else {
        removeRetained(sp.kind(), sp.id());
      }
    }
    for (Retained c : checkpoints()) {
      removeRetained(c.kind(), c.id());
    }
    metadata.get(latestKey()).ifPresent(i -> metadata.delete(latestKey(), i.version()));
    List<String> names = new ArrayList<>();
    try {
      for (String n : objects.list(job + "/")) {
        boolean kept = keep.stream().anyMatch(sp -> n.startsWith(savepointDirectory(sp.id()) + "/"));
        if (!kept) {
          names.add(n);
        }
      }
    } catch (IOException e) {
      return 0;
    }
    deleteObjects(names);
    return names.size();
  }

  public void removeRetained(String kind, long id) {
    String key = retainedKey(kind, id);
    metadata.get(key).ifPresent(i -> metadata.delete(key, i.version()));
  }

  /** The retained checkpoint or savepoint {@code id} of {@code kind}, if its entry exists. */
  public Optional<Retained> retained(String kind, long id) {
    return metadata.get(retainedKey(kind, id)).map(i -> retainedOf(i.value()));
  }

  /** Retained checkpoints (not savepoints), oldest first. */
  public List<Retained> checkpoints() {
    return list(prefix() + "checkpoints/");
  }

  /** Savepoints, oldest first. */
  public List<Retained> savepoints() {
    return list(prefix() + "savepoints/");
  }

  /**
   * Deletes the objects of checkpoints that never completed or are no longer retained (timers and
   * metadata of runs that died mid-checkpoint): everything under {@code <job>/checkpoints/chk-<n>/}
   * for an {@code n} not in {@code keep}. Best effort.
   *
   * @return the objects deleted
   */
  public List<String> sweepCheckpointObjects(java.util.Set<Long> keep) {
    String prefix = job + "/checkpoints/chk-";
    List<String> garbage = new ArrayList<>();
    try {
      for (String name : objects.list(prefix)) {
        int slash = name.indexOf('/', prefix.length());
        if (slash < 0) {
          continue;
        }
        try {
          long id = Long.parseLong(name.substring(prefix.length(), slash));
          if (!keep.contains(id)) {
            garbage.add(name);
          }
        } catch (NumberFormatException e) {
          // not ours
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    deleteObjects(garbage);
    return garbage;
  }

  /** Deletes {@code names} from the object store, best effort (garbage only). */
  public void deleteObjects(List<String> names) {
    for (String n : names) {
      try {
        objects.delete(n);
      } catch (IOException e) {
        // garbage left behind is harmless; a later sweep may collect it
      }
    }
  }

  private List<Retained> list(String prefix) {
    List<Retained> out = new ArrayList<>();
    for (Item i : metadata.queryAll(prefix)) {
      out.add(retainedOf(i.value()));
    }
    out.sort(java.util.Comparator.comparingLong(Retained::id));
    return out;
  }

  private static Retained retainedOf(byte[] entry) {
    JsonNode n = readJson(entry);
    Summary summary = null;
    if (n.hasNonNull("summary")) {
      try {
        summary = JSON.treeToValue(n.get("summary"), Summary.class);
      } catch (IOException e) {
        // written by a newer version in a shape this one cannot read: shown without it
      }
    }
    return new Retained(n.path("id").asLong(), n.path("kind").asText(), n.path("path").asText(), summary);
  }

  /** {@code path}'s directory with a trailing {@code /} (empty for a top-level name). */
  private static String directoryOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash + 1);
  }

  private String retainedKey(String kind, long id) {
    return prefix() + (CheckpointMetadata.SAVEPOINT.equals(kind) ? "savepoints/" : "checkpoints/")
        + String.format("%019d", id);
  }

  private String latestKey() {
    return prefix() + "latest";
  }

  private String prefix() {
    return "jobs/" + job + "/";
  }

  private static byte[] bytes(JsonNode n) {
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode readJson(byte[] b) {
    try {
      return JSON.readTree(b);
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt checkpoint record: " + e.getMessage(), e);
    }
  }
}
