package io.tributary.state.forst.rocks;

/**
 * A key group found in the snapshots a backend restores from: only the manifest's name is known
 * until the group is first accessed (or snapshotted again), when the small manifest is read.
 */
final class RestoredGroup implements SnapshotWriter.Reused {
  private final int keyGroup;
  private final String manifestName;
  private final String snapshotId;
  private final java.util.function.Supplier<ShardManifest> load;
  private volatile ShardManifest manifest;

  RestoredGroup(int keyGroup, String manifestName, String snapshotId, ShardRestorer restorer) {
    this(keyGroup, manifestName, snapshotId, () -> restorer.readManifest(manifestName));
  }

  /**
   * A group whose manifest {@code load} produces on first use (a claim of a copied snapshot's key
   * group, see {@link SnapshotCopies}, writes {@code manifestName} as it loads).
   */
  RestoredGroup(int keyGroup, String manifestName, String snapshotId, java.util.function.Supplier<ShardManifest> load) {
    this.keyGroup = keyGroup;
    this.manifestName = manifestName;
    this.snapshotId = snapshotId;
    this.load = load;
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
      synchronized (this) {
        m = manifest;
        if (m == null) {
          m = load.get();
          manifest = m;
        }
      }
    }
    return m;
  }
}
