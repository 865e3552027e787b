package io.tributary.state.forst.rocks;

/**
 * A key group found in the snapshots a backend restores from: only the manifest's name is known
 * until the group is first accessed (or snapshotted again), when the small manifest is read.
 */
final class RestoredGroup implements SnapshotWriter.Reused {
  private final int keyGroup;
  private final String manifestName;
  private final String snapshotId;
  private final ShardRestorer restorer;
  private volatile ShardManifest manifest;

  RestoredGroup(int keyGroup, String manifestName, String snapshotId, ShardRestorer restorer) {
    this.keyGroup = keyGroup;
    this.manifestName = manifestName;
    this.snapshotId = snapshotId;
    this.restorer = restorer;
  }

  @Override
  public int keyGroup() {
    return keyGroup;
  }

  @Override
  public String manifestName() {
    return manifestName;
  }

  /** The registry id of the snapshot this group comes from. */
  String snapshotId() {
    return snapshotId;
  }

  /** The manifest, read from the object store on first use. Thread-safe. */
  @Override
  public ShardManifest manifest() {
    ShardManifest m = manifest;
    if (m == null) {
      m = restorer.readManifest(manifestName);
      manifest = m;
    }
    return m;
  }
}
