package io.tributary.worker.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Records in keyed state come back equal: every value type, names and timestamps; corrupt bytes are refused. */
class RecordCodecTest {
  @Test
  void everyValueTypeRoundTrips() throws IOException {
    Record r = new Record(Schema.of("l", "d", "s", "t", "f", "n", "json", "i"),
        new Object[] {-7L, 2.5, "zürich ✓", true, false, null, Map.of("a", List.of(1, "x")), 3}, 42);
    List<Record> back = roundTrip(List.of(r, r.withTimestamp(Record.NO_TIMESTAMP)));

    assertThat(back.get(0).asMap()).containsEntry("l", -7L).containsEntry("d", 2.5).containsEntry("s", "zürich ✓")
        .containsEntry("t", true).containsEntry("f", false).containsEntry("n", null)
        .containsEntry("json", Map.of("a", List.of(1, "x"))).containsEntry("i", 3L);
    assertThat(back.get(0).schema()).isSameAs(r.schema());
    assertThat(back.get(0).timestamp()).isEqualTo(42);
    assertThat(back.get(1).timestamp()).isEqualTo(Record.NO_TIMESTAMP);
  }

  @Test
  void anUnknownValueTypeIsCorruptState() {
    byte[] bytes = {0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 'x', 99};
    assertThatThrownBy(() -> RecordCodec.INSTANCE.read(new DataInputStream(new ByteArrayInputStream(bytes))))
        .isInstanceOf(IOException.class).hasMessageContaining("corrupt state: value type 99");
  }

  private static List<Record> roundTrip(List<Record> records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    RecordCodec.LIST.write(records, new DataOutputStream(bytes));
    return RecordCodec.LIST.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
  }
}
