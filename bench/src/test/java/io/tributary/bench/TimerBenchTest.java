package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code bench timers}: both shapes run, and every timer registered fires once (figures not checked). */
class TimerBenchTest {
  @Test
  void everyRegisteredTimerFiresOnceInBothShapes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TimerBench.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), 500, 20_000, 1);
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out).containsPattern("sliding +[0-9.]+ ns/record .*, [0-9,]+ timers fired per round");
    assertThat(out).containsPattern("session +[0-9.]+ ns/record .*, [0-9,]+ timers fired per round");
    assertThat(out).doesNotContain(" 0 timers fired");
  }
}
