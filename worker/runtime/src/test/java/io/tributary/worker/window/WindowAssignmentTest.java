package io.tributary.worker.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Windows assigned to rows without aggregating them: one copy per window, with its bounds, in window order. */
class WindowAssignmentTest {
  private static final Schema BID = Schema.of("auction", "window_end", "ts");

  @Test
  void aRowBecomesOneRowPerWindowThatContainsIt() {
    List<Record> out = new ArrayList<>();
    Record bid = new Record(BID, new Object[] {7L, "stale", 12L}, 12);
    assertThat(new WindowAssignment(WindowPlan.sliding(10, 5)).assign(bid, out::add)).isTrue();
    assertThat(out).extracting(Record::asMap).containsExactly(
        Map.of("auction", 7L, "ts", 12L, "window_start", 5L, "window_end", 15L),
        Map.of("auction", 7L, "ts", 12L, "window_start", 10L, "window_end", 20L));
    assertThat(out.get(0).schema()).isEqualTo(Schema.of("auction", "ts", "window_start", "window_end"));
    assertThat(out).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(12));

    out.clear();
    new WindowAssignment(WindowPlan.cumulate(30, 10)).assign(bid, out::add);
    assertThat(out).extracting(r -> r.get("window_end")).containsExactly(20L, 30L);
  }

  @Test
  void aRowWithoutATimestampIsRefusedAndSessionsCannotBeAssigned() {
    List<Record> out = new ArrayList<>();
    Record untimed = new Record(BID, new Object[] {7L, null, null}, Record.NO_TIMESTAMP);
    assertThat(new WindowAssignment(WindowPlan.tumbling(10)).assign(untimed, out::add)).isFalse();
    assertThat(out).isEmpty();
    assertThatThrownBy(() -> new WindowAssignment(WindowPlan.session(5))).isInstanceOf(IllegalArgumentException.class);
  }
}
