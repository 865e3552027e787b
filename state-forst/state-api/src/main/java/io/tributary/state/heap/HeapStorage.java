package io.tributary.state.heap;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.store.ObjectStore;
import java.util.concurrent.Executor;

/**
 * Where a heap backend's snapshots go: one object per key group,
 * {@code {job}/state/{operator}/heap/chk-{id}/kg-{g}}, uploaded on {@code uploads} and counted in
 * {@code retained}.
 */
record HeapStorage(ObjectStore store, Executor uploads, RetainedObjects retained, String job, String operator) {
  String objectName(long checkpointId, int keyGroup) {
    return job + "/state/" + operator + "/heap/chk-" + checkpointId + "/kg-" + keyGroup;
  }

  RetainedObjects.SnapshotId snapshotId(long checkpointId, KeyGroupRange range) {
    return new RetainedObjects.SnapshotId(job, operator, checkpointId, range);
  }
}
