package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The output sample: a bounded ring, refilled at most {@value OutputTap#MAX_PER_SECOND} records a second. */
class OutputTapTest {
  private static final Schema SCHEMA = Schema.of("n");
  private static final long SECOND = 1_000_000_000L;

  private static Record record(long n) {
    return new Record(SCHEMA, new Object[] {n}, Record.NO_TIMESTAMP);
  }

  /** Takes records as the task thread does: while the budget lasts. */
  private static void offer(OutputTap tap, long from, long to) {
    for (long n = from; n < to; n++) {
      if (tap.budget > 0) {
        tap.take(record(n));
      }
    }
  }

  private static List<Object> values(List<OutputTap.Entry> entries) {
    return entries.stream().map(e -> e.record().get("n")).toList();
  }

  @Test
  void takesNothingBeforeItsFirstRefill() {
    OutputTap tap = new OutputTap("out", 0);
    offer(tap, 0, 10);
    assertThat(tap.taken()).isZero();
    assertThat(tap.since(0)).isEmpty();
  }

  @Test
  void takesAtMostItsBudgetPerSecond() {
    OutputTap tap = new OutputTap("out", 0);
    tap.refill(0);
    offer(tap, 0, 1_000);
    assertThat(tap.taken()).isEqualTo(OutputTap.MAX_PER_SECOND);

    tap.refill(SECOND / 2); // same second: no more
    offer(tap, 1_000, 2_000);
    assertThat(tap.taken()).isEqualTo(OutputTap.MAX_PER_SECOND);

    tap.refill(SECOND);
    offer(tap, 2_000, 3_000);
    assertThat(tap.taken()).isEqualTo(2L * OutputTap.MAX_PER_SECOND);
    assertThat(values(tap.since(OutputTap.MAX_PER_SECOND)).get(0)).isEqualTo(2_000L);
  }

  @Test
  void keepsTheLastCapacityRecordsInOrder() {
    OutputTap tap = new OutputTap("out", 1);
    long taken = 0;
    for (long second = 0; taken < 3L * OutputTap.CAPACITY + 7; second++) {
      tap.refill(second * SECOND);
      offer(tap, taken, taken + OutputTap.MAX_PER_SECOND);
      taken = tap.taken();
    }
    List<OutputTap.Entry> kept = tap.since(0);
    assertThat(kept).hasSize(OutputTap.CAPACITY);
    assertThat(kept).extracting(OutputTap.Entry::seq).isSorted().doesNotHaveDuplicates();
    assertThat(kept.get(kept.size() - 1).seq()).isEqualTo(taken - 1);
    assertThat(values(kept)).first().isEqualTo(taken - OutputTap.CAPACITY);
    assertThat(tap.since(taken - 3)).hasSize(3);
    assertThat(tap.since(taken)).isEmpty();
  }
}
