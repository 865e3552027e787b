package io.tributary.state.forst.rocks;

import io.tributary.state.forst.registry.SharedFileRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Registers, once, the files of the restored key groups under the ids of the snapshots they came
 * from, so that this process's registry never deletes a file that a restored (and still retained)
 * snapshot references (C8), even when the caller did not {@linkplain ForstStateBackendFactory#retain
 * retain} it. Done before the backend's first snapshot, off the task thread, so the restore itself
 * reads no manifest. The ids are those {@code retain} and {@code release} use: a restored snapshot
 * that was also retained is counted once, and one release of it ends both.
 */
final class RestoredRegistration {
  private final SharedFileRegistry registry;
  private final List<RestoredGroup> groups;
  private boolean done;

  RestoredRegistration(SharedFileRegistry registry, Collection<RestoredGroup> groups) {
    this.registry = registry;
    this.groups = new ArrayList<>(groups);
  }

  synchronized void ensure() {
    if (done) {
      return;
    }
    for (RestoredGroup g : groups) {
      List<String> files = new ArrayList<>(g.manifest().objects());
      files.add(g.manifestName());
      registry.register(g.snapshotId(), files);
    }
    done = true;
  }
}
