package io.tributary.connectors.datagen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connect.ConnectorException;
import io.tributary.connectors.ResumeCheck;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.stream.Record;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DatagenSourceTest {
  @Test
  void recordsFollowTheDocumentedShape() {
    DatagenSource source = new DatagenSource("gen", 100, 7, 42, 10, 1000);
    List<Record> records = CollectingOutput.readAll(source, 1, 30).records;

    assertThat(records).hasSize(100);
    for (int i = 0; i < records.size(); i++) {
      Record r = records.get(i);
      assertThat(r.schema()).isSameAs(DatagenSource.SCHEMA);
      assertThat(r.get("id")).isEqualTo((long) i);
      assertThat((Long) r.get("key")).isBetween(0L, 6L);
      assertThat((Double) r.get("value")).isBetween(0.0, 1000.0);
      assertThat(r.get("ts")).isEqualTo(1000L + i * 10L);
    }
    assertThat(records).extracting(r -> r.get("key")).as("all keys occur").contains(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(records).extracting(r -> r.get("value")).doesNotHaveDuplicates();
  }

  @Test
  void splitsTogetherProduceEachRecordOnceAndSameAsOneSplit() {
    DatagenSource source = new DatagenSource("gen", 1000, 50, 3, 1, 0);
    List<Record> single = CollectingOutput.readAll(source, 1, 64).records;
    List<Record> split = CollectingOutput.readAll(source, 3, 17).records.stream()
        .sorted(Comparator.comparing(r -> (Long) r.get("id"))).toList();

    assertThat(source.splits(3)).hasSize(3);
    assertThat(split).isEqualTo(single);
  }

  @Test
  void seedDecidesTheValues() {
    DatagenSource a = new DatagenSource("gen", 50, 1000, 1, 1, 0);
    DatagenSource b = new DatagenSource("gen", 50, 1000, 2, 1, 0);
    assertThat(CollectingOutput.readAll(a, 2, 10).records).isEqualTo(CollectingOutput.readAll(a, 2, 10).records);
    assertThat(CollectingOutput.readAll(a, 1, 50).records).isNotEqualTo(CollectingOutput.readAll(b, 1, 50).records);
  }

  @Test
  void unboundedWithoutCount() {
    DatagenSource source = new DatagenSource("gen", Long.MAX_VALUE, 10, 0, 1, 0);
    assertThat(source.bounded()).isFalse();
    try (SplitReader reader = source.open(source.splits(2).get(1))) {
      CollectingOutput out = new CollectingOutput();
      assertThat(reader.read(out, 5)).isEqualTo(5);
      assertThat(out.records).extracting(r -> r.get("id")).containsExactly(1L, 3L, 5L, 7L, 9L);
    }
  }

  @Test
  void resumingAtAPositionContinuesExactlyWhereTheReaderWas() {
    long base = ResumeCheck.baseSeed("datagen resume");
    for (int round = 0; round < 200; round++) {
      long seed = base + round;
      Random random = new Random(seed);
      DatagenSource source = new DatagenSource("gen", random.nextInt(300), 1 + random.nextInt(20), seed, 1, 0);
      List<GeneratorSplit> splits = source.splits(1 + random.nextInt(4));
      GeneratorSplit split = splits.get(random.nextInt(splits.size()));

      CollectingOutput whole = ResumeCheck.uninterrupted(source.open(split), random);
      CollectingOutput pieces = ResumeCheck.interrupted(p -> source.open(split, p), random);

      assertThat(pieces.records).as("seed %d", seed).isEqualTo(whole.records);
    }
  }

  @Test
  void positionIsTheNextIdOfTheSplit() {
    DatagenSource source = new DatagenSource("gen", Long.MAX_VALUE, 10, 0, 1, 0);
    GeneratorSplit split = source.splits(3).get(2);
    try (SplitReader reader = source.open(split)) {
      assertThat(reader.position()).isEqualTo("2");
      reader.read(new CollectingOutput(), 4);
      assertThat(reader.position()).isEqualTo("14");
    }
    CollectingOutput out = new CollectingOutput();
    try (SplitReader reader = source.open(split, "14")) {
      reader.read(out, 2);
    }
    assertThat(out.records).extracting(r -> r.get("id")).containsExactly(14L, 17L);
  }

  @Test
  void positionOfAnotherSplitOrGarbageIsRejected() {
    DatagenSource source = new DatagenSource("gen", 100, 10, 0, 1, 0);
    GeneratorSplit split = source.splits(3).get(2);
    assertThatThrownBy(() -> source.open(split, "13"))
        .isInstanceOf(ConnectorException.class).hasMessageContaining("gen-2-of-3").hasMessageContaining("'13'");
    assertThatThrownBy(() -> source.open(split, "-1")).isInstanceOf(ConnectorException.class);
    assertThatThrownBy(() -> source.open(split, "x")).isInstanceOf(ConnectorException.class);
    try (SplitReader ended = source.open(split, "101")) {
      assertThat(ended.read(new CollectingOutput(), 5)).isEqualTo(SplitReader.END);
    }
  }
}
