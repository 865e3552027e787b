package io.tributary.connectors.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connectors.ResumeCheck;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.stream.Record;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NexmarkSourceTest {
  @Test
  void splitsCoverEachEventExactlyOnce() {
    NexmarkSource source = new NexmarkSource("nx", 503, null, 5, 10_000);
    List<Map<String, Object>> one = maps(CollectingOutput.readAll(source, 1, 100).records);
    for (int parallelism = 2; parallelism <= 5; parallelism++) {
      List<Map<String, Object>> many = maps(CollectingOutput.readAll(source, parallelism, 7).records);
      assertThat(many).as("parallelism %d", parallelism).hasSize(503).containsExactlyInAnyOrderElementsOf(one);
    }
  }

  @Test
  void oneKindEmitsOnlyThatKindWithoutEventTypeAndCountsOnlyIt() {
    NexmarkSource bids = new NexmarkSource("nx", 100, NexmarkKind.BID, 0, 10_000);
    List<Record> records = CollectingOutput.readAll(bids, 3, 10).records;
    assertThat(records).hasSize(100).allSatisfy(r -> assertThat(r.schema()).isSameAs(NexmarkKind.BID.schema()));

    NexmarkSource persons = new NexmarkSource("nx", 4, NexmarkKind.PERSON, 0, 10_000);
    assertThat(CollectingOutput.readAll(persons, 2, 10).records)
        .extracting(r -> r.get("id")).containsExactlyInAnyOrder(1000L, 1001L, 1002L, 1003L);
  }

  @Test
  void kindAllLabelsEachEvent() {
    NexmarkSource all = new NexmarkSource("nx", 50, null, 0, 10_000);
    assertThat(CollectingOutput.readAll(all, 1, 50).records).extracting(r -> r.get("eventType"))
        .startsWith("person", "auction", "auction", "auction", "bid");
    assertThat(all.bounded()).isTrue();
    assertThat(new NexmarkSource("nx", Long.MAX_VALUE, null, 0, 1).bounded()).isFalse();
  }

  private static List<Map<String, Object>> maps(List<Record> records) {
    return records.stream().map(Record::asMap).toList();
  }

  @Test
  void resumingAtAPositionContinuesExactlyWhereTheReaderWas() {
    long base = ResumeCheck.baseSeed("nexmark resume");
    NexmarkKind[] kinds = {null, NexmarkKind.PERSON, NexmarkKind.AUCTION, NexmarkKind.BID};
    for (int round = 0; round < 100; round++) {
      long seed = base + round;
      Random random = new Random(seed);
      NexmarkKind kind = kinds[random.nextInt(kinds.length)];
      NexmarkSource source = new NexmarkSource("nx", random.nextInt(400), kind, seed, 1 + random.nextInt(10_000));
      List<GeneratorSplit> splits = source.splits(1 + random.nextInt(4));
      GeneratorSplit split = splits.get(random.nextInt(splits.size()));

      CollectingOutput whole = ResumeCheck.uninterrupted(source.open(split), random);
      CollectingOutput pieces = ResumeCheck.interrupted(p -> source.open(split, p), random);

      assertThat(maps(pieces.records)).as("seed %d, kind %s", seed, kind).isEqualTo(maps(whole.records));
    }
  }
}
