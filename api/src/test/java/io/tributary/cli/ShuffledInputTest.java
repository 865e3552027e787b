package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract C3's determinism, end to end: input shuffled within maxOutOfOrderness gives exactly the
 * results of the ordered input, at any parallelism.
 */
class ShuffledInputTest {
  private static final long BOUND = 2_000;

  private static final String JOB = """
      name: shuffled
      sources:
        in: {type: file, path: ${input}, eventTime: {field: ts, maxOutOfOrderness: 2s}}
      operators:
        - {id: tumbling, input: in, keyBy: [k], window: {type: tumbling, size: 5s}, aggregate: {n: "count(*)", s: "sum(v)", lo: "min(v)", hi: "max(v)"}}
        - {id: sliding, input: in, keyBy: [k], window: {type: sliding, size: 6s, slide: 2s}, aggregate: {n: "count(*)", a: "avg(v)"}}
        - {id: sessions, input: in, keyBy: [k], window: {type: session, gap: 700ms}, aggregate: {n: "count(*)"}}
      sinks:
        tumbling-out: {input: tumbling, type: file, path: ${out}/tumbling}
        sliding-out: {input: sliding, type: file, path: ${out}/sliding}
        sessions-out: {input: sessions, type: file, path: ${out}/sessions}
      """;

  @TempDir
  Path tmp;

  @Test
  void shufflingWithinTheBoundChangesNothing() throws Exception {
    for (int round = 0; round < 3; round++) {
      long seed = System.nanoTime() + round;
      Random rnd = new Random(seed);
      List<long[]> events = new ArrayList<>();
      long ts = 0;
      for (int i = 0; i < 3_000; i++) {
        ts += rnd.nextInt(60);
        events.add(new long[] {ts, rnd.nextInt(7), rnd.nextInt(1000)});
      }
      Path ordered = write("ordered-" + round, events);
      // each event moves by less than the bound: sort by event time plus a jitter below it
      List<long[]> shuffled = new ArrayList<>(events);
      long[] jitter = rnd.longs(events.size(), 0, BOUND).toArray();
      List<Integer> idx = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        idx.add(i);
      }
      idx.sort(Comparator.comparingLong(i -> events.get(i)[0] + jitter[i]));
      shuffled.clear();
      idx.forEach(i -> shuffled.add(events.get(i)));
      Path mixed = write("shuffled-" + round, shuffled);

      Path outA = tmp.resolve("a" + round);
      Path outB = tmp.resolve("b" + round);
      Pipelines.run(JOB, ordered, outA, 1);
      Pipelines.run(JOB, mixed, outB, 1 + round);
      for (String sink : List.of("tumbling", "sliding", "sessions")) {
        List<String> expected = Pipelines.committed(outA.resolve(sink));
        assertThat(expected).as("seed %d: %s produced results", seed, sink).isNotEmpty();
        assertThat(Pipelines.committed(outB.resolve(sink))).as("seed %d, sink %s", seed, sink)
            .containsExactlyElementsOf(expected);
        assertThat(String.join("\n", expected)).as("seed %d: nothing was late", seed).doesNotContain("\"revision\":1");
      }
    }
  }

  private Path write(String name, List<long[]> events) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (long[] e : events) {
      sb.append("{\"k\":\"k").append(e[1]).append("\",\"v\":").append(e[2]).append(",\"ts\":").append(e[0]).append("}\n");
    }
    Path p = tmp.resolve(name + ".jsonl");
    Files.writeString(p, sb);
    return p;
  }
}
