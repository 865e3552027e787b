package io.tributary.state.forst.rocks;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateSnapshot;
import io.tributary.state.forst.store.ObjectNames;

/**
 * Object names of one operator's state in the object store:
 *
 * <pre>
 * {job}/state/shared/{sha256}.sst                     immutable SSTs, shared across snapshots
 * {job}/state/{operator}/chk-{id}/kg-{g}/{file}        private files of a shard checkpoint
 * {job}/state/{operator}/chk-{id}/kg-{g}.json          the shard manifest
 * {job}/state/{operator}/chk-{id}/changes-{range}.log   the change log of a snapshot's shards
 * </pre>
 */
record StateNames(String job, String operator) {
  StateNames {
    ObjectNames.validate(job + "/state/" + operator);
  }

  String sharedPrefix() {
    return job + "/state/shared/";
  }

  private String checkpointPrefix(long checkpointId) {
    return job + "/state/" + operator + "/chk-" + checkpointId + "/";
  }

  String privateFile(long checkpointId, int keyGroup, String fileName) {
    return checkpointPrefix(checkpointId) + "kg-" + keyGroup + "/" + fileName;
  }

  String manifest(long checkpointId, int keyGroup) {
    return checkpointPrefix(checkpointId) + "kg-" + keyGroup + ".json";
  }

  /** The change-log object of the snapshot of key groups {@code range}. */
  String changeLog(long checkpointId, KeyGroupRange range) {
    return checkpointPrefix(checkpointId) + "changes-" + range.start() + "-" + range.end() + ".log";
  }

  /** The id under which a snapshot's files are registered in the shared-file registry. */
  String snapshotId(long checkpointId, KeyGroupRange range) {
    return checkpointPrefix(checkpointId) + range.start() + "-" + range.end();
  }

  String snapshotId(StateSnapshot s) {
    return snapshotId(s.checkpointId(), s.range());
  }
}
