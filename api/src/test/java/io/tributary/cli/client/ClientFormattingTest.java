package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.client.model.Checkpoint;
import io.tributary.client.model.DesiredState;
import io.tributary.client.model.Job;
import io.tributary.client.model.ObservedState;
import io.tributary.client.model.SnapshotStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Human durations and sizes, and aligned tables. */
class ClientFormattingTest {
  private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");

  @Test
  void durationsUseAtMostTwoUnits() {
    assertThat(Human.duration(Duration.ofMillis(350))).isEqualTo("350ms");
    assertThat(Human.duration(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Human.duration(Duration.ofSeconds(45))).isEqualTo("45s");
    assertThat(Human.duration(Duration.ofSeconds(192))).isEqualTo("3m12s");
    assertThat(Human.duration(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(Human.duration(Duration.ofMinutes(125))).isEqualTo("2h5m");
    assertThat(Human.duration(Duration.ofHours(99))).isEqualTo("4d3h");
  }

  @Test
  void agesOfTheFutureAreZeroAndAbsentOnesADash() {
    assertThat(Human.age(at("2026-05-01T09:59:15Z"), NOW)).isEqualTo("45s");
    assertThat(Human.age(at("2026-05-01T10:00:03Z"), NOW)).isEqualTo("0ms");
    assertThat(Human.age(null, NOW)).isEqualTo("-");
  }

  @Test
  void sizesAreBinary() {
    assertThat(Human.bytes(512L)).isEqualTo("512 B");
    assertThat(Human.bytes(1536L)).isEqualTo("1.5 KiB");
    assertThat(Human.bytes(1L << 30)).isEqualTo("1.0 GiB");
    assertThat(Human.bytes(null)).isEqualTo("-");
  }

  @Test
  void tableColumnsAlignAndEmptyCellsShowADash() {
    String text = new Table("NAME", "STATE", "AGE").row("a", "running", "5s").row("longer-name", "", "2m").render();
    assertThat(text.lines()).containsExactly(
        "NAME          STATE     AGE",
        "a             running   5s",
        "longer-name   -         2m");
  }

  @Test
  void aJobRowShowsStateParallelismCheckpointAndAge() {
    Job job = new Job().name("clicks").desiredState(DesiredState.RUNNING).observedState(ObservedState.RUNNING)
        .parallelism(2).createdAt(at("2026-05-01T08:00:00Z"))
        .lastCheckpoint(new Checkpoint().id(42L).status(SnapshotStatus.COMPLETED)
            .triggeredAt(at("2026-05-01T09:59:47Z")).completedAt(at("2026-05-01T09:59:48Z")));
    Job stopped = new Job().name("idle").desiredState(DesiredState.STOPPED).observedState(ObservedState.STOPPED)
        .createdAt(at("2026-04-28T10:00:00Z"));
    assertThat(JobTable.of(List.of(job, stopped), NOW).render().lines()).containsExactly(
        "NAME     DESIRED   STATE     PARALLELISM   LAST-CHECKPOINT   AGE",
        "clicks   running   running   2             #42 (12s ago)     2h",
        "idle     stopped   stopped   -             -                 3d");
  }

  @Test
  void aJobWithStagesAtTheirOwnParallelismShowsThem() {
    Job job = new Job().name("clicks").parallelism(2).stageParallelism(java.util.Map.of("per-user", 4, "clicks", 1));

    assertThat(JobTable.parallelism(job)).isEqualTo("2 (clicks 1, per-user 4)");
    assertThat(JobTable.parallelism(new Job().name("x").parallelism(3))).isEqualTo("3");
  }

  private static OffsetDateTime at(String instant) {
    return OffsetDateTime.ofInstant(Instant.parse(instant), ZoneOffset.UTC);
  }
}
