package io.tributary.control;

import io.tributary.run.StateBackends;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The storage of an embedded control plane under one data directory (DESIGN §8):
 * <ul>
 *   <li>{@code <data>/metadata}: the {@link EmbeddedMetadataStore} (locked by one process);
 *   <li>{@code <data>/checkpoints}: the object store of checkpoints, savepoints and state files;
 *   <li>{@code <data>/local/control}: the forst backend's working directories and file caches
 *       (one per process, contract C5: a cache), wiped on open.
 * </ul>
 * The forst backend starts on the first job that asks for it.
 */
final class ControlStorage implements AutoCloseable {
  private final MetadataStore metadata;
  private final ObjectStore objects;
  private final StateBackends state;

  ControlStorage(Path dataDir) {
    Path checkpoints = dataDir.resolve("checkpoints");
    Path local = dataDir.resolve("local").resolve("control");
    this.metadata = new EmbeddedMetadataStore(dataDir.resolve("metadata"));
    try {
      Files.createDirectories(checkpoints);
      deleteRecursively(local);
      Files.createDirectories(local);
    } catch (IOException e) {
      metadata.close();
      throw new UncheckedIOException("cannot prepare the data directory " + dataDir + ": " + e.getMessage(), e);
    }
    this.objects = ObjectStores.open(checkpoints.toString());
    this.state = new StateBackends(objects, local);
  }

  MetadataStore metadata() {
    return metadata;
  }

  ObjectStore objects() {
    return objects;
  }

  Map<String, StateBackendFactory> backends() {
    return state.factories();
  }

  /** The checkpoints of the job that runs under {@code internalName}. */
  CheckpointStore checkpoints(String internalName) {
    return new CheckpointStore(internalName, objects, metadata);
  }

  @Override
  public void close() {
    state.close();
    objects.close();
    metadata.close();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
