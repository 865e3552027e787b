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

/**
 * Where a job's checkpoints are recorded (contract C9). Metadata objects live in the object store,
 * written once and never overwritten: {@code <job>/checkpoints/chk-<n>/_metadata} and
 * {@code <job>/savepoints/sp-<n>/_metadata}. The metadata store holds, under {@code jobs/<job>/}:
 * <ul>
 *   <li>{@code run}: the epoch of the latest run (each run of the job gets a larger one, which is
 *       also its sink attempt number) and the largest sink parallelism any run used;
 *   <li>{@code latest}: the pointer to the latest completed checkpoint or savepoint, a fenced item
 *       (see {@link FencedWrites}) advanced by a conditional write naming the version the
 *       coordinator last wrote and its epoch, so a stale coordinator cannot move it;
 *   <li>{@code checkpoints/<n>} and {@code savepoints/<n>}: the retained ones.
 * </ul>
 */
public final class CheckpointStore {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String METADATA = "_metadata";

  private final String job;
  private final ObjectStore objects;
  private final MetadataStore metadata;

  /** The latest-checkpoint pointer. */
  public record Pointer(long id, String kind, String path, long version) {}

  /** A new run of the job. */
  public record Run(long epoch, int previousMaxSinkParallelism) {}

  /** A retained checkpoint or savepoint. */
  public record Retained(long id, String kind, String path) {}

  public CheckpointStore(String job, ObjectStore objects, MetadataStore metadata) {
    this.job = job;
    this.objects = objects;
    this.metadata = metadata;
  }

  public ObjectStore objects() {
    return objects;
  }

  /**
   * Starts a run: takes the next epoch and fences the pointer with it, so coordinators of earlier
   * runs can no longer advance it.
   *
   * @param sinkParallelism the largest sink parallelism of the new run
   */
  public Run beginRun(int sinkParallelism) {
    String key = prefix() + "run";
    while (true) {
      Optional<Item> current = metadata.get(key);
      long epoch = 0;
      int maxSinks = 0;
      if (current.isPresent()) {
        JsonNode n = readJson(current.get().value());
        epoch = n.path("epoch").asLong();
        maxSinks = n.path("maxSinkParallelism").asInt();
      }
      ObjectNode next = JSON.createObjectNode().put("epoch", epoch + 1)
          .put("maxSinkParallelism", Math.max(maxSinks, sinkParallelism));
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
   * Empties the pointer (a run that starts without state): {@code restore latest} then finds
   * nothing until this run completes a checkpoint.
   */
  public void clearLatest(long epoch) {
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

  public CheckpointMetadata load(String path) {
    try {
      return CheckpointCodec.decode(objects.getBytes(path));
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
    Optional<FencedValue> v = FencedWrites.read(metadata, latestKey());
    if (v.isPresent() && v.get().epoch() > epoch) {
      throw new io.tributary.scheduler.metadata.FencedException(latestKey(), epoch, v.get().epoch());
    }
  }

  /** Writes the immutable metadata object; refuses to replace one. */
  public String writeMetadata(CheckpointMetadata md) {
    String path = metadataPath(md.kind(), md.id());
    try {
      if (!objects.putIfAbsent(path, CheckpointCodec.encode(md))) {
        throw new IllegalStateException(md.kind() + " " + md.id() + " already exists at " + path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
    }
    return path;
  }

  /**
   * Advances the pointer to {@code md} if it is still at {@code expectedVersion} and carries no
   * newer epoch.
   *
   * @return the pointer's new version
   * @throws io.tributary.scheduler.metadata.FencedException if a newer run owns the job
   */
  public long advance(long epoch, CheckpointMetadata md, String path, long expectedVersion) {
    ObjectNode body = JSON.createObjectNode().put("id", md.id()).put("kind", md.kind()).put("path", path);
    return FencedWrites.write(metadata, latestKey(), epoch, bytes(body), expectedVersion);
  }

  public void addRetained(CheckpointMetadata md, String path) {
    String key = retainedKey(md.kind(), md.id());
    ObjectNode body = JSON.createObjectNode().put("id", md.id()).put("kind", md.kind()).put("path", path);
    metadata.put(key, bytes(body), metadata.get(key).map(Item::version).orElse(0L));
  }

  public void removeRetained(String kind, long id) {
    String key = retainedKey(kind, id);
    metadata.get(key).ifPresent(i -> metadata.delete(key, i.version()));
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
      JsonNode n = readJson(i.value());
      out.add(new Retained(n.path("id").asLong(), n.path("kind").asText(), n.path("path").asText()));
    }
    out.sort(java.util.Comparator.comparingLong(Retained::id));
    return out;
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
