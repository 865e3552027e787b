package io.tributary.connectors.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonRecordsTest {
  @Test
  void parsesFieldsInOrderWithJsonTypes() throws Exception {
    Record r = JsonRecords.parse(
        "{\"b\":1,\"a\":2.5,\"s\":\"x\",\"t\":true,\"n\":null,\"o\":{\"k\":[1,\"y\"]},\"big\":123456789012345678901}");

    assertThat(r.schema()).isSameAs(Schema.of("b", "a", "s", "t", "n", "o", "big"));
    assertThat(r.get("b")).isEqualTo(1L);
    assertThat(r.get("a")).isEqualTo(2.5);
    assertThat(r.get("s")).isEqualTo("x");
    assertThat(r.get("t")).isEqualTo(true);
    assertThat(r.get("n")).isNull();
    assertThat(r.get("o")).isEqualTo(Map.of("k", List.of(1L, "y")));
    assertThat(r.get("big")).isEqualTo(1.2345678901234568E20);
    assertThat(r.timestamp()).isEqualTo(Record.NO_TIMESTAMP);
  }

  @Test
  void bytesAndStringsParseAlike() throws Exception {
    String json = "{\"name\":\"Zoë\",\"v\":-3}";
    assertThat(JsonRecords.parse(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(JsonRecords.parse(json));
  }

  @Test
  void rejectsWhatIsNotExactlyOneObject() {
    for (String bad : List.of("", "[1,2]", "42", "{\"a\":1", "{\"a\":1} {\"b\":2}", "{\"a\":1,\"a\":2}", "{a:1}")) {
      assertThatThrownBy(() -> JsonRecords.parse(bad))
          .as(bad)
          .isInstanceOf(MalformedRecordException.class)
          .hasMessageNotContaining("null");
    }
  }

  @Test
  void writesOneObjectInSchemaOrder() {
    Record r = new Record(Schema.of("z", "a", "m"), new Object[] {1L, "q\"\n", List.of(Map.of("x", false))}, 5);
    assertThat(JsonRecords.toJson(r)).isEqualTo("{\"z\":1,\"a\":\"q\\\"\\n\",\"m\":[{\"x\":false}]}");
    assertThat(new String(JsonRecords.toJsonBytes(r, List.of("m", "z")), StandardCharsets.UTF_8))
        .isEqualTo("{\"m\":[{\"x\":false}],\"z\":1}");
  }

  @Test
  void deadLetterNamesSourceErrorAndRaw() {
    Record d = JsonRecords.deadLetter("bids", "{oops", "invalid JSON");
    assertThat(d.asMap()).containsExactly(
        Map.entry("source", "bids"), Map.entry("error", "invalid JSON"), Map.entry("raw", "{oops"));
  }

  @Test
  void randomRecordsSurviveARoundTrip() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 500; i++) {
      Record r = randomRecord(random);
      String json = JsonRecords.toJson(r);
      assertThat(JsonRecords.parse(json)).as("seed %d: %s", seed, json).isEqualTo(r);
    }
  }

  private static Record randomRecord(Random random) {
    Map<String, Object> fields = new LinkedHashMap<>();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      fields.put("f" + random.nextInt(8) + "\u00e9", randomValue(random, 2));
    }
    return Record.of(fields, Record.NO_TIMESTAMP);
  }

  private static Object randomValue(Random random, int depth) {
    switch (random.nextInt(depth > 0 ? 8 : 6)) {
      case 0: return random.nextLong();
      case 1: return random.nextDouble() * 1e6 - 5e5;
      case 2: return randomString(random);
      case 3: return random.nextBoolean();
      case 4: return null;
      case 5: return (double) random.nextInt(3);
      case 6: {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          list.add(randomValue(random, depth - 1));
        }
        return list;
      }
      default: {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          m.put(randomString(random), randomValue(random, depth - 1));
        }
        return m;
      }
    }
  }

  private static String randomString(Random random) {
    char[] chars = new char[random.nextInt(6)];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = (char) (random.nextInt(3) == 0 ? random.nextInt(0x3000) : 'a' + random.nextInt(26));
    }
    return new String(chars);
  }
}
