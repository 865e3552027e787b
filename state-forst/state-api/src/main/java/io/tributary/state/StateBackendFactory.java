package io.tributary.state;

import java.util.List;

/**
 * Creates keyed state backends; one factory per backend kind ({@code heap}, {@code forst}), chosen
 * by the job spec's {@code state.backend} or the process configuration.
 */
public interface StateBackendFactory {
  /** The name used in configuration, for example {@code heap}. */
  String name();

  /**
   * A backend for one operator instance.
   *
   * @param jobName the job, for naming durable files
   * @param operatorId the stateful operator's id in the plan
   * @param range the key groups the instance owns
   * @param maxParallelism the job's number of key groups
   */
  KeyedStateBackend create(String jobName, String operatorId, KeyGroupRange range, int maxParallelism);

  /**
   * A backend for one operator instance that starts from {@code snapshots} (contracts C7, C8): the
   * key groups of {@code range} found in them, whatever range each snapshot covered. Data may be
   * fetched lazily, per key group, on first access.
   *
   * @throws UnsupportedOperationException if this backend cannot restore
   */
  default KeyedStateBackend restore(String jobName, String operatorId, KeyGroupRange range, int maxParallelism,
      List<StateSnapshot> snapshots) {
    throw new UnsupportedOperationException(name() + " state cannot be restored");
  }

  /**
   * Copies {@code snapshot} into {@code directory} (a savepoint's): every object it
   * references, so that the copy depends on nothing outside the directory. Objects inside the
   * directory reference each other by relative names, so the directory can be copied or moved as a
   * whole and restored from wherever it lies, under the same backend.
   *
   * <p>The copy is never counted as retained: no {@link #release} deletes any of its objects; its
   * owner deletes the directory. A backend {@linkplain #restore restored} from a copy does not make
   * its snapshots reference the copy: it copies what it restores back under its own names (at the
   * latest during its first snapshot), so the directory may be deleted once every backend restored
   * from it has completed a snapshot, or is closed.
   *
   * <p>The default throws; a factory that wraps another must forward this call (a savepoint of its
   * state fails otherwise).
   *
   * @param directory an object-name prefix without trailing {@code /}
   * @return the snapshot of the copy: same backend, checkpoint, range and sizes; its manifests are
   *     objects under {@code directory}
   * @throws UnsupportedOperationException if this backend cannot copy snapshots
   * @throws RuntimeException if a copy fails; what was copied may be left behind
   */
  default StateSnapshot copyTo(String jobName, String operatorId, StateSnapshot snapshot, String directory) {
    throw new UnsupportedOperationException(name() + " state cannot be copied");
  }

  /**
   * Counts {@code snapshot} as retained: until it is {@linkplain #release released}, no object it
   * references is deleted, whatever other snapshots are released (snapshots may share objects).
   *
   * <p>Call it for every snapshot this factory did not produce that is still retained: after a
   * process restart, for each checkpoint and savepoint loaded from metadata, <em>before</em>
   * releasing any snapshot of the same operator and before restoring from it. Snapshots produced
   * by {@link KeyedStateBackend#snapshot} of this factory's backends need no call: they are
   * retained once their future completes (one whose future fails is never retained, and what it
   * wrote is deleted).
   *
   * <p>A snapshot is identified by {@code (jobName, operatorId, snapshot.checkpointId(),
   * snapshot.range())}: the subtasks of one operator write snapshots of one checkpoint with
   * different ranges. Idempotent: retaining a snapshot that is retained already (by an earlier
   * call, or because this factory produced it) counts it once, and one {@link #release} ends its
   * retention. Retaining a snapshot again after releasing it is not supported: its objects may be
   * gone.
   *
   * <p>The default does nothing, for backends that never delete objects.
   *
   * @throws IllegalArgumentException if {@code snapshot} was written by another backend kind
   * @throws RuntimeException if the backend must read the snapshot's objects to know what it
   *     references and cannot; nothing is retained then, and the call may be repeated
   */
  default void retain(String jobName, String operatorId, StateSnapshot snapshot) {}

  /**
   * Ends the retention of {@code snapshot} (a subsumed checkpoint, a deleted savepoint) and deletes
   * from the object store every object that it referenced and that no snapshot this factory still
   * retains references. Objects this factory does not count (never referenced by a snapshot it
   * produced or {@linkplain #retain retained}) are never deleted.
   *
   * <p>Idempotent: releasing a snapshot that is not retained (never retained, released already, or
   * written by another backend kind) releases nothing; the only objects such a call deletes are
   * unreferenced ones whose deletion failed earlier. Deletions that fail are not thrown: they are
   * logged and retried by later calls.
   *
   * <p>Restore is lazy: a backend restored from {@code snapshot} may read its objects until that
   * backend's next snapshot completes. Release a snapshot only once every backend restored from it
   * has completed a later snapshot (as subsumption by a completed checkpoint guarantees) or is
   * closed.
   *
   * <p>The default deletes nothing.
   *
   * @return the names of the objects this call deleted
   */
  default List<String> release(String jobName, String operatorId, StateSnapshot snapshot) {
    return List.of();
  }
}
