package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputCommandTest {
  @Test
  void eventsAreDispatchedAtABlankLineWithTheirNameAndData() {
    OutputCommand.EventStream stream = new OutputCommand.EventStream();
    List<OutputCommand.EventStream.Event> events = new ArrayList<>();
    for (String line : List.of("event: heartbeat", "data: {}", "", ": a comment", "", "event:record", "data: {\"a\":",
        "data: 1}", "", "data: unnamed", "", "")) {
      OutputCommand.EventStream.Event e = stream.accept(line);
      if (e != null) {
        events.add(e);
      }
    }
    assertThat(events).containsExactly(new OutputCommand.EventStream.Event("heartbeat", "{}"),
        new OutputCommand.EventStream.Event("record", "{\"a\":\n1}"),
        new OutputCommand.EventStream.Event("message", "unnamed"));
  }

  @Test
  void aRecordIsItsOperatorSubtaskAndValueForPeopleAndTheEventAsItCameOtherwise() {
    String data = "{\"operatorId\":\"out\",\"subtask\":1,\"at\":\"2026-12-07T18:00:00Z\",\"value\":{\"k\":\"a\",\"n\":2}}";
    assertThat(printed(data, true)).isEqualTo("out[1] {\"k\":\"a\",\"n\":2}\n");
    assertThat(printed(data, false)).isEqualTo(data + "\n");
    assertThat(printed("not json", true)).as("shown as it came").isEqualTo("not json\n");
  }

  private static String printed(String data, boolean human) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    OutputCommand.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), data, human);
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}
