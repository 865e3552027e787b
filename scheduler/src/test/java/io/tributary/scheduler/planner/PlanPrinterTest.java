package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.spec.JobSpecs;
import org.junit.jupiter.api.Test;

class PlanPrinterTest {
  @Test
  void describesStagesExchangesAndKeyGroupRanges() {
    String text = PlanPrinter.describe(Planner.plan(JobSpecs.parse(resource("auction-activity.yaml"))));

    assertThat(text)
        .contains("job auction-activity: 2 stages, 128 key groups, state backend heap")
        .contains("stage 0 [bids -> expensive -> bad] x2")
        .contains("chained bids[bad-bids] -> bad")
        .contains("stage 1 [per-auction -> out -> late] x2")
        .contains("<- hash by [auction] from stage 0 expensive into per-auction")
        .contains("window per-auction sliding 10000ms every 2000ms keyBy [auction]")
        .contains("bids = count(*), top = max(price_eur), total = sum(price_eur)")
        .contains("key groups: subtask 0 [0, 64), subtask 1 [64, 128)");
    assertThat(text.lines().filter(l -> l.contains("key groups:")).count()).isEqualTo(1);
  }

  @Test
  void listsAtMostSixteenSubtasks() {
    String text = PlanPrinter.describe(Planner.plan(JobSpecs.parse(resource("auction-activity.yaml")), 100));

    assertThat(text).contains("subtask 15 [").doesNotContain("subtask 16 [").contains("... (84 more)");
  }
}
