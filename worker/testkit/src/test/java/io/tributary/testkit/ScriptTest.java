package io.tributary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.KeySelector;
import io.tributary.worker.window.WindowOperator;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The kit's adversarial runs, on the window operator: restoring after every step (with an output
 * that refuses every other offer) and rescaling mid-way give the plain run's output; a watermark
 * left pending by a refused offer holds back input and forwarding.
 */
class ScriptTest {
  private static final WindowAggregatePlan PLAN = new WindowAggregatePlan("w", List.of("auction"),
      WindowPlan.tumbling(10), 0, null, List.of(new AggregatePlan("n", Function.COUNT, null),
          new AggregatePlan("total", Function.SUM, "price")));

  private static final Script SCRIPT = Script.create().records(0, Rows.parse("""
      auction | price | ts
      1       | 5     | 0
      2       | 2     | 3
      3       | 7     | 9
      """, "ts")).watermark(5).records(0, Rows.parse("""
      auction | price | ts
      1       | 1     | 8
      4       | 3     | 12
      2       | 4     | 25
      """, "ts")).watermark(15).records(0, Rows.parse("""
      auction | price | ts
      1       | 6     | 2
      5       | 1     | 31
      """, "ts"));

  @Test
  void restoringAfterEveryStepAndRescalingGiveThePlainOutput() {
    InMemoryObjectStore store = new InMemoryObjectStore();
    Supplier<OperatorHarness> harness = () -> OperatorHarness.of(() -> new WindowOperator(PLAN))
        .timerNamespaceCodec(WindowOperator.namespaceCodec()).objectStore(store);
    Script.Outcome plain = SCRIPT.run(harness);

    assertThat(Rows.maps(plain.main())).hasSize(6).contains(
        java.util.Map.of("auction", 1L, "window_start", 0L, "window_end", 10L, "n", 2L, "total", 6L, "revision", 0L));
    assertThat(plain.lateDropped()).as("auction 1 at ts 2 after watermark 15").isEqualTo(1);
    Script.Outcome restored = SCRIPT.runRestoringAfterEveryStep(harness);
    assertThat(restored.main()).containsExactlyInAnyOrderElementsOf(plain.main());
    assertThat(restored.lateDropped()).isEqualTo(1);
    for (int cut = 0; cut <= SCRIPT.steps().size(); cut += 3) {
      Script.Outcome rescaled = SCRIPT.runRescaled(harness, List.of(new KeySelector(List.of("auction"))), 8, 2, 3, cut);
      assertThat(rescaled.main()).as("cut after %d steps", cut).containsExactlyInAnyOrderElementsOf(plain.main());
    }
  }

  @Test
  void aRefusedOfferLeavesTheWatermarkPendingUntilItIsResumed() {
    try (OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(PLAN)).refuseEveryOtherOffer().open()) {
      Rows.parse("""
          auction | price | ts
          1       | 5     | 0
          2       | 2     | 3
          3       | 7     | 4
          """, "ts").forEach(h::processElement);

      assertThat(h.processWatermark(20)).as("the second firing's output found no room").isEqualTo(Long.MIN_VALUE);
      assertThat(h.output()).hasSize(2);
      assertThat(h.forwardedWatermarks()).isEmpty();
      assertThatThrownBy(() -> h.processElement(Rows.parse("auction | price\n1 | 1").get(0)))
          .isInstanceOf(AssertionError.class).hasMessageContaining("while watermark 20 is pending");

      assertThat(h.resumeWatermark()).isEqualTo(20);
      assertThat(h.output()).hasSize(3);
      assertThat(h.forwardedWatermarks()).containsExactly(20L);
    }
  }
}
