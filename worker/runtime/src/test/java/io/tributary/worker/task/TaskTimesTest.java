package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The accounting of a task's time into busy, idle and backpressured, with explicit clocks. */
class TaskTimesTest {
  @Test
  void timeNotSpentWaitingIsBusy() {
    TaskTimes t = new TaskTimes();
    t.start(1_000);
    t.beginWait(TaskTimes.Wait.INPUT, 1_100);
    t.endWait(1_400);
    t.beginWait(TaskTimes.Wait.CREDIT, 1_500);
    t.endWait(1_700);

    TaskTimes.Sample s = t.read(2_000);
    assertThat(s.elapsedNanos()).isEqualTo(1_000);
    assertThat(s.idleNanos()).isEqualTo(300);
    assertThat(s.backpressuredNanos()).isEqualTo(200);
    assertThat(s.busyNanos()).isEqualTo(500);
  }

  @Test
  void aWaitInProgressCountsUpToTheRead() {
    TaskTimes t = new TaskTimes();
    t.start(0);
    t.beginWait(TaskTimes.Wait.CREDIT, 100);

    assertThat(t.read(600).backpressuredNanos()).isEqualTo(500);
    assertThat(t.read(900).backpressuredNanos()).isEqualTo(800);
    assertThat(t.read(900).busyNanos()).isEqualTo(100);
  }

  @Test
  void aStoppedTaskAccruesNothingMore() {
    TaskTimes t = new TaskTimes();
    t.start(0);
    t.beginWait(TaskTimes.Wait.INPUT, 100);
    t.stop(300);

    TaskTimes.Sample s = t.read(10_000);
    assertThat(s.elapsedNanos()).isEqualTo(300);
    assertThat(s.idleNanos()).isEqualTo(200);
    assertThat(s.busyNanos()).isEqualTo(100);
  }

  @Test
  void aTaskNotStartedHasNoTime() {
    assertThat(new TaskTimes().read(5_000)).isEqualTo(new TaskTimes.Sample(5_000, 0, 0, 0));
  }
}
