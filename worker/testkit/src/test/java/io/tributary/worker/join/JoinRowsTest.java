package io.tributary.worker.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.JoinPlan;
import io.tributary.plan.WindowPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The joined row's rule: window bounds, left fields, right fields by name or as r.name, equal keys once. */
class JoinRowsTest {
  private static final Schema LEFT = Schema.of("auction", "price", "ts");
  private static final Schema RIGHT = Schema.of("auction", "seller", "ts", "window_end");

  @Test
  void rightFieldsWhoseNamesAreTakenAreQualifiedButAnEqualKeyOfTheSameNameAppearsOnce() {
    JoinRows rows = new JoinRows(JoinPlan.interval("j", List.of("auction"), List.of("auction"), 0, 0, null, null));
    assertThat(rows.rowFields(LEFT, RIGHT)).containsExactly("auction", "price", "ts", "seller", "r.ts", "window_end");

    JoinRows byOtherNames = new JoinRows(JoinPlan.interval("j", List.of("auction"), List.of("seller"), 0, 0, null,
        null));
    assertThat(byOtherNames.rowFields(LEFT, RIGHT))
        .containsExactly("auction", "price", "ts", "r.auction", "seller", "r.ts", "window_end");
  }

  @Test
  void aWindowJoinsRowStartsWithItsWindowWhichReplacesTheInputsWindowFields() {
    JoinRows rows = new JoinRows(JoinPlan.window("j", List.of("auction"), List.of("auction"),
        WindowPlan.tumbling(10), null, null));
    assertThat(rows.rowFields(LEFT, RIGHT))
        .containsExactly("window_start", "window_end", "auction", "price", "ts", "seller", "r.ts");
    Record joined = rows.join(new Record(LEFT, new Object[] {1L, 5L, 3L}, 3),
        new Record(RIGHT, new Object[] {1L, "ann", 7L, 99L}, 7), 0, 10, 9);
    assertThat(joined.asMap()).isEqualTo(map("window_start", 0L, "window_end", 10L, "auction", 1L, "price", 5L,
        "ts", 3L, "seller", "ann", "r.ts", 7L));
    assertThat(joined.timestamp()).isEqualTo(9);
  }

  @Test
  void filterAndSelectReadTheRowAndQualifiedNamesOfEitherSide() {
    JoinRows rows = new JoinRows(JoinPlan.interval("j", List.of("auction"), List.of("auction"), 0, 0,
        "r.ts > l.ts AND seller <> 'bob'", selectOf("auction", "auction", "lag", "r.ts - ts", "who", "r.seller")));
    Record left = new Record(LEFT, new Object[] {1L, 5L, 3L}, 3);
    Record joined = rows.join(left, new Record(RIGHT, new Object[] {1L, "ann", 7L, null}, 7), 0, 0, 7);
    assertThat(joined.asMap()).isEqualTo(map("auction", 1L, "lag", 4L, "who", "ann"));
    assertThat(rows.join(left, new Record(RIGHT, new Object[] {1L, "bob", 7L, null}, 7), 0, 0, 7)).isNull();
    assertThat(rows.join(left, new Record(RIGHT, new Object[] {1L, "ann", 2L, null}, 2), 0, 0, 3)).isNull();
  }

  @Test
  void aFilterAloneKeepsTheJoinedRow() {
    JoinRows rows = new JoinRows(JoinPlan.regular("j", List.of("auction"), List.of("auction"), 0, "price > 1", null));
    Record joined = rows.join(new Record(LEFT, new Object[] {1L, 5L, 3L}, 3),
        new Record(Schema.of("auction", "seller"), new Object[] {1L, "ann"}, 1), 0, 0, 3);
    assertThat(joined.schema()).isEqualTo(Schema.of("auction", "price", "ts", "seller"));
  }

  private static Map<String, String> selectOf(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> map(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
