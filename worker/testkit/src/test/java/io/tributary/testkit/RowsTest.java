package io.tributary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.stream.Record;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowsTest {
  @Test
  void parsesTypedCellsAndTheTimestampColumn() {
    List<Record> rows = Rows.parse("""
        auction | price | name    | ok    | dateTime
        # a comment
        1       | 2.5   | 'a b'   | true  | 1000
        -2      | null  | "7"     | false | null
        3       | 1e3   | plain   | null  | 3000
        """, "dateTime");
    assertThat(rows).hasSize(3);
    assertThat(rows.get(0).values()).containsExactly(1L, 2.5, "a b", true, 1000L);
    assertThat(rows.get(0).timestamp()).isEqualTo(1000L);
    assertThat(rows.get(1).values()).containsExactly(-2L, null, "7", false, null);
    assertThat(rows.get(1).timestamp()).isEqualTo(Record.NO_TIMESTAMP);
    assertThat(rows.get(2).values()).containsExactly(3L, 1000.0, "plain", null, 3000L);
    assertThat(rows.get(0).schema()).isSameAs(rows.get(2).schema());
  }

  @Test
  void withoutTimestampColumnRecordsHaveNone() {
    assertThat(Rows.parse("a\n1\n").get(0).timestamp()).isEqualTo(Record.NO_TIMESTAMP);
  }

  @Test
  void refusesRaggedRowsAndUnknownTimestampColumns() {
    assertThatThrownBy(() -> Rows.parse("a | b\n1\n")).hasMessageContaining("row 1 has 1 cells");
    assertThatThrownBy(() -> Rows.parse("a\n1\n", "ts")).hasMessageContaining("no column 'ts'");
    assertThatThrownBy(() -> Rows.parse("ts\n'x'\n", "ts")).hasMessageContaining("not a whole number");
  }
}
