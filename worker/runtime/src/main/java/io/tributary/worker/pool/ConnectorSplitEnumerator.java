package io.tributary.worker.pool;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.plan.SourcePlan;
import io.tributary.protocol.WorkerException;
import io.tributary.protocol.SourceSplits;
import io.tributary.protocol.SplitEnumerator;
import io.tributary.worker.task.ConnectorFactory;
import java.util.ArrayList;
import java.util.List;

/** Lists sources' splits with the connectors workers use: the control plane's view of them. */
public final class ConnectorSplitEnumerator implements SplitEnumerator {
  private final ConnectorFactory connectors;

  public ConnectorSplitEnumerator(ConnectorFactory connectors) {
    this.connectors = connectors;
  }

  @Override
  public SourceSplits splits(SourcePlan source, int parallelism) {
    try {
      SourceConnector c = connectors.source(source);
      List<String> ids = new ArrayList<>();
      for (SourceSplit s : c.splits(parallelism)) {
        ids.add(s.id());
      }
      return new SourceSplits(ids, c.splitsFollowParallelism());
    } catch (RuntimeException e) {
      throw new WorkerException(Failures.classify(e), e);
    }
  }

  @Override
  public java.util.Optional<io.tributary.connect.SourceBacklog> backlog(SourcePlan source,
      java.util.Map<String, String> positions) {
    try {
      return connectors.source(source).backlog(positions);
    } catch (RuntimeException e) {
      throw new WorkerException(Failures.classify(e), e);
    }
  }

  @Override
  public boolean canResume(SourcePlan source, String splitId) {
    try {
      return connectors.source(source).splitOf(splitId) != null;
    } catch (RuntimeException e) {
      throw new WorkerException(Failures.classify(e), e);
    }
  }
}
