package io.tributary.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.datagen.DatagenSource;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.connectors.internal.GeneratorStart;
import io.tributary.connectors.nexmark.NexmarkKind;
import io.tributary.connectors.nexmark.NexmarkSource;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Where generators' event time starts: unbounded ones at the wall clock's time when the job starts
 * (unless {@code startTime} pins it), bounded ones at a fixed time; a restore continues the event
 * times of the checkpoint, however late it happens.
 */
class GeneratorStartTest {
  @Test
  void anUnboundedGeneratorStartsAtTheCurrentTime() {
    for (SourcePlan plan : List.of(datagen(Map.of()), nexmark(Map.of()))) {
      long before = System.currentTimeMillis();
      SourceConnector source = Connectors.source(plan);
      List<? extends SourceSplit> splits = source.splits(2);
      long after = System.currentTimeMillis();

      long first = firstEventTime(plan, source, splits.get(0));
      assertThat(first).as("%s: the first event time", plan.type()).isBetween(before, after);
      assertThat(firstEventTime(plan, source, splits.get(1)) - first)
          .as("%s: both splits share one start (split 1 emits the second event)", plan.type())
          .isBetween(0L, 1L);
      assertThat(splits).extracting(SourceSplit::id).as("%s: the start travels in the split ids", plan.type())
          .allMatch(id -> id.endsWith("@" + first));
    }
  }

  @Test
  void startTimePinsAnUnboundedGenerator() {
    for (SourcePlan plan : List.of(datagen(Map.of("startTime", 5000L)), nexmark(Map.of("startTime", 5000L)))) {
      SourceConnector source = Connectors.source(plan);
      List<? extends SourceSplit> splits = source.splits(3);
      assertThat(firstEventTime(plan, source, splits.get(0))).as(plan.type()).isEqualTo(5000L);
      assertThat(splits).extracting(SourceSplit::id).as(plan.type())
          .containsExactly("src-0-of-3", "src-1-of-3", "src-2-of-3");
    }
  }

  @Test
  void aBoundedGeneratorIsTheSameOnEveryRun() {
    SourcePlan gen = datagen(Map.of("count", 300L));
    SourcePlan bids = nexmark(Map.of("events", 300L));
    for (SourcePlan plan : List.of(gen, bids)) {
      List<Record> first = CollectingOutput.readAll(Connectors.source(plan), 2, 50).records;
      List<Record> again = CollectingOutput.readAll(Connectors.source(plan), 2, 50).records;
      assertThat(again).as(plan.type()).isEqualTo(first);
      assertThat(firstEventTime(plan, Connectors.source(plan), Connectors.source(plan).splits(2).get(0)))
          .as("%s starts at 2026-01-01", plan.type()).isEqualTo(GeneratorStart.DEFAULT);
      assertThat(Connectors.source(plan).splits(2)).extracting(SourceSplit::id).as(plan.type())
          .containsExactly("src-0-of-2", "src-1-of-2");
    }
  }

  @Test
  void aRestoredGeneratorContinuesTheEventTimesOfItsCheckpoint() {
    AtomicLong clock = new AtomicLong(1_800_000_000_000L);
    List<SourceConnector> sources = List.of(
        new DatagenSource("gen", Long.MAX_VALUE, 10, 7, 5, GeneratorStart.wallClock(clock::get)),
        new NexmarkSource("gen", Long.MAX_VALUE, NexmarkKind.BID, 7, 1000, GeneratorStart.wallClock(clock::get)),
        new NexmarkSource("gen", Long.MAX_VALUE, null, 7, 1000, GeneratorStart.wallClock(clock::get)));
    for (SourceConnector source : sources) {
      clock.set(1_800_000_000_000L);
      List<? extends SourceSplit> splits = source.splits(2);
      clock.set(1_800_000_000_000L + 86_400_000L); // a day on: the records read below are due
      Map<String, List<Record>> uninterrupted = new HashMap<>();
      Map<String, String> positions = new HashMap<>();
      Map<String, List<Record>> resumed = new HashMap<>();
      for (SourceSplit split : splits) {
        try (SplitReader reader = source.open(split)) {
          CollectingOutput before = new CollectingOutput();
          reader.read(before, 40);
          positions.put(split.id(), reader.position());
          CollectingOutput after = new CollectingOutput();
          reader.read(after, 40);
          uninterrupted.put(split.id(), after.records);
        }
      }

      clock.set(1_800_000_000_000L + 2 * 86_400_000L); // restored a day later, by a new instance
      for (String id : positions.keySet()) {
        SourceSplit split = source.splitOf(id);
        assertThat(split).as("the checkpoint's split %s is recreated from its id", id).isNotNull();
        try (SplitReader reader = source.open(split, positions.get(id))) {
          CollectingOutput after = new CollectingOutput();
          reader.read(after, 40);
          resumed.put(id, after.records);
        }
      }
      assertThat(resumed).as("%s: the same records, event times included", source.getClass().getSimpleName())
          .isEqualTo(uninterrupted);
      assertThat(source.splits(2).get(0).id()).as("a fresh start takes the time now").endsWith("@1800172800000");
    }
  }

  @Test
  void aGeneratorStartedAtTheWallClockEmitsEachRecordOnceTheClockReachesItsEventTime() {
    long t0 = 1_800_000_000_000L;
    AtomicLong clock = new AtomicLong(t0);
    // bids are 46 of every 50 Nexmark events: limited to eventRate bids a second, their event time
    // would run ahead of the clock by 4 seconds a minute, and persons' by 49 seconds a second
    for (NexmarkKind kind : NexmarkKind.values()) {
      NexmarkSource source = new NexmarkSource("gen", Long.MAX_VALUE, kind, 7, 1000, GeneratorStart.wallClock(clock::get));
      clock.set(t0);
      SourceSplit split = source.splits(1).get(0);
      try (SplitReader reader = source.open(split)) {
        long due = 0;
        for (long n = 0; n <= 2000; n++) {
          due += io.tributary.connectors.nexmark.NexmarkIds.kindOf(n) == kind ? 1 : 0;
        }
        clock.set(t0 + 2000); // events 0..2000 are due at 1,000 a second
        CollectingOutput out = new CollectingOutput();
        while (reader.read(out, 256) > 0) {
          // every due record, in batches
        }
        assertThat(out.records).as(kind.name()).hasSize((int) due)
            .allSatisfy(r -> assertThat((Long) r.get("dateTime")).isLessThanOrEqualTo(t0 + 2000));
        assertThat(reader.read(new CollectingOutput(), 256)).as("%s: nothing until the clock moves", kind).isZero();
        clock.addAndGet(60_000);
        CollectingOutput next = new CollectingOutput();
        reader.read(next, 1);
        assertThat((Long) next.records.get(0).get("dateTime")).as(kind.name()).isGreaterThan(t0 + 2000);
      }
    }
    DatagenSource datagen = new DatagenSource("gen", Long.MAX_VALUE, 10, 7, 5, GeneratorStart.wallClock(clock::get));
    clock.set(t0);
    List<? extends SourceSplit> splits = datagen.splits(2);
    clock.set(t0 + 100);
    try (SplitReader even = datagen.open(splits.get(0)); SplitReader odd = datagen.open(splits.get(1))) {
      CollectingOutput out = new CollectingOutput();
      even.read(out, 1000);
      odd.read(out, 1000);
      assertThat(out.records).extracting(r -> (Long) r.get("id")).as("ids 0..20 are due at t0 + 5 ms each")
          .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(0, 20).boxed().toList());
    }
    for (double limit : new double[] {0, 500}) {
      SourcePlan plan = new SourcePlan("src", "datagen", "json", null, limit, null, Map.of());
      SourceConnector source = Connectors.source(plan);
      CollectingOutput read = new CollectingOutput();
      try (SplitReader reader = source.open(source.splits(1).get(0))) {
        reader.read(read, 10_000); // one record a millisecond of event time from now on
      }
      if (limit == 0) {
        assertThat(read.records).as("without a rate limit: as fast as it is read (a load test)").hasSize(10_000);
      } else {
        assertThat(read.records.size()).as("with a rate limit: only what is due").isLessThan(10_000);
      }
    }
    NexmarkSource bounded = new NexmarkSource("gen", 5000, NexmarkKind.BID, 7, 1000, GeneratorStart.wallClock(clock::get));
    clock.set(t0);
    CollectingOutput all = new CollectingOutput();
    try (SplitReader reader = bounded.open(bounded.splits(1).get(0))) {
      reader.read(all, 5000);
    }
    assertThat(all.records).as("a bounded generator is not paced").hasSize(5000);
  }

  @Test
  void aSplitOfAnOlderVersionWithoutStartContinuesFromTheOldFixedStart() {
    DatagenSource source = new DatagenSource("gen", Long.MAX_VALUE, 10, 0, 1,
        GeneratorStart.wallClock(() -> 1_800_000_000_000L));
    SourceSplit old = source.splitOf("gen-1-of-2");
    assertThat(old).isEqualTo(new GeneratorSplit("gen", 1, 2));
    CollectingOutput out = new CollectingOutput();
    try (SplitReader reader = source.open(old, "41")) {
      reader.read(out, 1);
    }
    assertThat(out.records.get(0).get("ts")).isEqualTo(GeneratorStart.DEFAULT + 41);
  }

  @Test
  void splitIdsRoundTrip() {
    for (GeneratorSplit s : List.of(new GeneratorSplit("a-b", 0, 1), new GeneratorSplit("a-b", 2, 3, 1_796_000_000_123L),
        new GeneratorSplit("x", 4, 5, -3L))) {
      assertThat(GeneratorSplit.parse(s.sourceId(), s.id())).isEqualTo(s);
    }
    List<String> invalid = new ArrayList<>(List.of("a-b-3-of-3", "a-b-0-of-1@", "a-b-0-of-1@x", "c-0-of-1",
        "a-b-0-of-1@99999999999999999999"));
    assertThat(invalid).allMatch(id -> GeneratorSplit.parse("a-b", id) == null);
  }

  private static long firstEventTime(SourcePlan plan, SourceConnector source, SourceSplit split) {
    CollectingOutput out = new CollectingOutput();
    long deadline = System.nanoTime() + 5_000_000_000L;
    try (SplitReader reader = source.open(split)) {
      // an unbounded generator emits a record once the wall clock reaches its event time: soon
      while (reader.read(out, 1) == 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
    }
    Record r = out.records.get(0);
    return (Long) r.get(plan.type().equals("datagen") ? "ts" : "dateTime");
  }

  private static SourcePlan datagen(Map<String, Object> props) {
    return new SourcePlan("src", "datagen", "json", null, 0, null, props);
  }

  private static SourcePlan nexmark(Map<String, Object> props) {
    Map<String, Object> p = new HashMap<>(props);
    p.putIfAbsent("eventRate", 1000);
    return new SourcePlan("src", "nexmark", "json", null, 0, null, p);
  }
}
