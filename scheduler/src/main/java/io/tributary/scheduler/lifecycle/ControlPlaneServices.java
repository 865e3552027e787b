package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.SplitEnumerator;
import io.tributary.protocol.WorkerPool;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.store.ObjectStore;
import java.util.Map;
import java.util.Objects;

/**
 * What a control plane runs on, chosen by the composition root: where metadata and checkpoints are
 * kept, which state backends' snapshots it retains and releases, and the workers jobs run on.
 *
 * @param metadata jobs, statuses, events, projects, tokens and checkpoint pointers
 * @param checkpoints the object store of checkpoints, savepoints and state files
 * @param stateBackends by name: what the checkpoint coordinators retain, release and copy
 * @param pool the workers
 * @param splits lists sources' splits for placement
 * @param workersHaveOwnState whether the workers' state backends are other instances than
 *     {@code stateBackends} (see {@link io.tributary.scheduler.master.JobMaster.Services})
 * @param onClose releases what the composition root opened for these services, after the control
 *     plane ended every run
 */
public record ControlPlaneServices(MetadataStore metadata, ObjectStore checkpoints,
    Map<String, StateBackendFactory> stateBackends, WorkerPool pool, SplitEnumerator splits,
    boolean workersHaveOwnState, AutoCloseable onClose) implements AutoCloseable {
  public ControlPlaneServices {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(checkpoints, "checkpoints");
    stateBackends = Map.copyOf(stateBackends);
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(splits, "splits");
    Objects.requireNonNull(onClose, "onClose");
  }

  /** Services whose workers run in this process, sharing {@code stateBackends}. */
  public ControlPlaneServices(MetadataStore metadata, ObjectStore checkpoints,
      Map<String, StateBackendFactory> stateBackends, WorkerPool pool, SplitEnumerator splits, AutoCloseable onClose) {
    this(metadata, checkpoints, stateBackends, pool, splits, false, onClose);
  }

  @Override
  public void close() {
    try {
      onClose.close();
    } catch (Exception e) {
      System.getLogger(ControlPlaneServices.class.getName()).log(System.Logger.Level.WARNING,
          "closing the control plane's services failed", e);
    }
  }
}
