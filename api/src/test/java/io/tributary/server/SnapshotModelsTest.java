package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.api.generated.model.Checkpoint;
import io.tributary.api.generated.model.Savepoint;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.lifecycle.CheckpointRef;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Checkpoints and savepoints in the API, from entries of this version and of older ones. */
class SnapshotModelsTest {
  private static final Instant DONE = Instant.parse("2026-12-02T10:00:00.350Z");

  @Test
  void anEntryOfThisVersionGivesEveryFigure() {
    CheckpointStore.Summary s = new CheckpointStore.Summary(null, 163_840L, 108L, 2, DONE.toEpochMilli(),
        DONE.toEpochMilli() - 108, 1_600_000L, 20_480L, 24_117L, 310L, 2_048L);
    Checkpoint c = ApiModels.checkpoint(new CheckpointRef(43, "checkpoint", "job/checkpoints/chk-43", DONE, s));

    assertThat(c.getTriggeredAt().toInstant()).isEqualTo(DONE.minusMillis(108));
    assertThat(c.getCompletedAt().toInstant()).isEqualTo(DONE);
    assertThat(c.getDurationMillis()).isEqualTo(108);
    assertThat(c.getAlignmentMillis()).isEqualTo(1);
    assertThat(c.getSizeBytes()).isEqualTo(163_840);
    assertThat(c.getIncrementalSizeBytes()).isEqualTo(20_480);
    assertThat(c.getUploadedBytes()).isEqualTo(24_117);
    assertThat(c.getParallelism()).isEqualTo(2);
    assertThat(c.getInFlightRecords()).isEqualTo(310);
    assertThat(c.getInFlightBytes()).isEqualTo(2_048);
  }

  @Test
  void anEntryOfAnOlderVersionLeavesWhatItLacksAbsent() {
    CheckpointStore.Summary old = new CheckpointStore.Summary("stop", 4096L, 350L, 3, DONE.toEpochMilli(), null,
        null, null, null);
    Savepoint sp = ApiModels.savepoint(new CheckpointRef(7, "savepoint", "job/savepoints/sp-7", DONE, old));
    assertThat(sp.getTriggeredAt().toInstant()).as("its completion less its duration").isEqualTo(DONE.minusMillis(350));
    assertThat(sp.getTrigger()).isEqualTo(Savepoint.TriggerEnum.STOP);
    assertThat(sp.getSizeBytes()).isEqualTo(4096);
    assertThat(sp.getAlignmentMillis()).isNull();
    assertThat(sp.getIncrementalSizeBytes()).isNull();
    assertThat(sp.getUploadedBytes()).isNull();
    assertThat(sp.getInFlightRecords()).isNull();

    Checkpoint none = ApiModels.checkpoint(new CheckpointRef(5, "checkpoint", "job/checkpoints/chk-5", DONE, null));
    assertThat(none.getTriggeredAt()).isEqualTo(DONE.atOffset(ZoneOffset.UTC));
    assertThat(none.getDurationMillis()).isNull();
    assertThat(none.getSizeBytes()).isNull();
    assertThat(none.getParallelism()).isNull();
  }
}
