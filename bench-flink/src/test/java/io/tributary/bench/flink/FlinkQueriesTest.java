package io.tributary.bench.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flink's side of {@code bench flink} makes the results Tributary's makes: on a small input, at
 * parallelism 2 (so each engine's source reads two splits and windows get records of both), every
 * query's number of results from Flink (hashmap state) equals Tributary's (heap state, the bench
 * module's {@code QueryRun} in a JVM of its own, as {@code bench flink} runs it).
 */
class FlinkQueriesTest {
  private static final long EVENTS = 120_000;

  @ParameterizedTest
  @ValueSource(strings = {"q0", "q1", "q2", "q5", "q7", "q11", "count", "keyed-window", "keyed-sliding"})
  void flinkMakesTributarysResults(String query) throws Exception {
    Child.Figures tributary = Child.run(List.of("-Xmx512m"), System.getProperty("java.class.path"),
        "io.tributary.bench.QueryRun", List.of(query, Long.toString(EVENTS), "2", "heap", "0", "0"));

    FlinkRun.Figures flink = FlinkRun.run(new FlinkRun.Settings(query, EVENTS, 2, "hashmap", 0), 0);

    assertThat(tributary.results()).isPositive();
    assertThat(flink.results()).as(query).isEqualTo(tributary.results());
  }

  @org.junit.jupiter.api.Test
  void everyQueryIsTested() {
    assertThat(FlinkQueries.NAMES).containsExactlyInAnyOrder("q0", "q1", "q2", "q5", "q7", "q11", "count", "keyed-window",
        "keyed-sliding");
  }
}
