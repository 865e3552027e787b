package io.tributary.scheduler.master;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.SourceSplits;
import io.tributary.protocol.SplitEnumerator;
import java.util.List;
import java.util.Map;

/** Plans and split listings for job master tests, which run no real task. */
final class MasterFixtures {
  private MasterFixtures() {}

  /** One stage of {@code job} at {@code parallelism}: a source chained to a sink. */
  static ExecutionPlan plan(String job, int parallelism) {
    return new ExecutionPlan(job, 128, "heap", List.of(
        new StagePlan(0, "src", parallelism, List.of(
            new SourcePlan("src", "files", "json", null, 0, null, Map.of()),
            new SinkPlan("out", "blackhole", "json", Map.of())), List.of())),
        List.of());
  }

  /** Sources with no split. */
  static SplitEnumerator noSplits() {
    return new SplitEnumerator() {
      @Override
      public SourceSplits splits(SourcePlan source, int parallelism) {
        return new SourceSplits(List.of(), false);
      }

      @Override
      public boolean canResume(SourcePlan source, String splitId) {
        return false;
      }
    };
  }
}
