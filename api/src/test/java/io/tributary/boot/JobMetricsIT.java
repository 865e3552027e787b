package io.tributary.boot;

import static io.tributary.boot.ControlTests.await;
import static io.tributary.boot.ControlTests.awaitState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.lifecycle.InvalidRequestException;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.observe.JobMetricsView;
import io.tributary.scheduler.observe.OperatorMetricsView;
import io.tributary.scheduler.observe.OutputListener;
import io.tributary.scheduler.observe.OutputRecord;
import io.tributary.scheduler.observe.OutputSubscription;
import io.tributary.connect.ForwardingSplitReader;
import io.tributary.connect.SplitOutput;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running job's metrics (issue 5) and live output (issue 6) through the {@link JobManager}: rates,
 * operators as planned, Prometheus series that go with the job, restarts, and a subscription to the
 * sink's output.
 */
@Timeout(90)
class JobMetricsIT {
  private static final String P = "default";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path tmp;

  /** 2,000 numbers a second, keyed, into a blackhole; checkpoints every 200 ms. */
  private static String numbers(String name) {
    return """
        name: %s
        parallelism: 2
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          numbers: {type: datagen, count: 100000000, maxRecordsPerSecond: 2000}
        operators:
          - {id: by-key, input: numbers, keyBy: [key]}
        sinks:
          out: {input: by-key, type: blackhole}
        """.formatted(name);
  }

  @Test
  void aRunningJobReportsRatesPerOperatorAndPrometheusSeries() throws Exception {
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), ConnectorFactory.standard())) {
      jobs.apply(P, "numbers", numbers("numbers"), null);
      awaitState(jobs, P, "numbers", ObservedState.RUNNING);

      await("records in and out per second", WAIT, () -> {
        JobMetricsView m = jobs.metrics(P, "numbers");
        return m.recordsInPerSecond() > 0 && m.recordsOutPerSecond() > 0;
      });
      JobMetricsView m = jobs.metrics(P, "numbers");
      assertThat(m.recordsInPerSecond()).as("throttled to 2000/s").isLessThan(4_000);
      assertThat(m.busyTimeMsPerSecond()).isBetween(0, 1000);
      assertThat(m.backpressuredTimeMsPerSecond()).isBetween(0, 1000);
      assertThat(m.restarts()).isZero();
      assertThat(m.watermark()).as("the job has no event time").isNull();
      assertThat(m.operators()).extracting(OperatorMetricsView::operatorId).containsExactly("numbers", "by-key", "out");
      assertThat(m.operators()).extracting(OperatorMetricsView::stageId).containsExactly(0, 1, 1);
      assertThat(m.operators()).extracting(OperatorMetricsView::parallelism).containsExactly(2, 2, 2);
      await("a checkpoint's figures", WAIT, () -> jobs.metrics(P, "numbers").lastCheckpointDurationMillis() != null);
      JobMetricsView checkpointed = jobs.metrics(P, "numbers");
      assertThat(checkpointed.lastCheckpointSizeBytes()).isNotNull().isNotNegative();
      assertThat(checkpointed.operators()).as("each operator's part of it").allSatisfy(o ->
          assertThat(o.lastCheckpointDurationMillis()).isNotNull().isNotNegative()
              .isLessThanOrEqualTo(checkpointed.lastCheckpointDurationMillis()));

      await("the job's series in the Prometheus text", WAIT, () -> jobs.prometheus()
          .contains("tributary_job_records_in_per_second{job=\"numbers\",project=\"default\"}"));
      String text = jobs.prometheus();
      assertThat(text).contains("# TYPE tributary_job_records_in_total counter")
          .containsPattern("tributary_job_records_in_total\\{job=\"numbers\",project=\"default\"} [1-9]")
          .contains("tributary_job_records_out_total{job=\"numbers\",project=\"default\"}")
          .contains("tributary_job_restarts_total{job=\"numbers\",project=\"default\"} 0.0")
          .contains("tributary_job_busy_time_ms_per_second{job=\"numbers\",project=\"default\"}")
          .contains("tributary_operator_records_in_per_second{job=\"numbers\",operator=\"by-key\",project=\"default\"}")
          .contains("tributary_job_last_checkpoint_duration_millis{job=\"numbers\",project=\"default\"}")
          .contains("tributary_jobs{project=\"default\",state=\"RUNNING\"} 1.0")
          .contains("jvm_memory_used_bytes");

      jobs.stop(P, "numbers", false);
      JobMetricsView stopped = jobs.metrics(P, "numbers");
      assertThat(stopped.recordsInPerSecond()).isZero();
      assertThat(stopped.operators()).hasSize(3);

      jobs.delete(P, "numbers", null);
      assertThat(jobs.prometheus()).doesNotContain("job=\"numbers\"");
      await("a sample after the delete: the project has no jobs left", WAIT,
          () -> !jobs.prometheus().contains("tributary_jobs{project=\"default\""));
      assertThat(jobs.prometheus()).doesNotContain("job=\"numbers\"");
    }
  }

  @Test
  void restartsAfterFailuresAreCounted() throws Exception {
    AtomicBoolean fail = new AtomicBoolean();
    ConnectorFactory failing = ConnectorFactory.standard().withSourceReaders(r -> new ForwardingSplitReader(r) {
      @Override
      public int read(SplitOutput out, int max) {
        if (fail.compareAndSet(true, false)) {
          throw new IllegalStateException("injected failure of a source reader");
        }
        return r.read(out, max);
      }
    });
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), failing)) {
      jobs.apply(P, "numbers", numbers("numbers"), null);
      awaitState(jobs, P, "numbers", ObservedState.RUNNING);
      fail.set(true);
      await("a restart", WAIT, () -> jobs.metrics(P, "numbers").restarts() == 1);
      awaitState(jobs, P, "numbers", ObservedState.RUNNING);
      await("records counted in the new run", WAIT, () -> jobs.metrics(P, "numbers").recordsInPerSecond() > 0);
      await("the restart in the Prometheus text", WAIT, () -> jobs.prometheus()
          .contains("tributary_job_restarts_total{job=\"numbers\",project=\"default\"} 1.0"));
    }
    try (JobManager again = ControlTests.open(tmp.resolve("data"), failing)) {
      assertThat(again.metrics(P, "numbers").restarts()).as("kept by a new control plane").isEqualTo(1);
    }
  }

  @Test
  void theSinksOutputIsSampledAndStreamedToSubscribers() throws Exception {
    try (JobManager jobs = ControlTests.open(tmp.resolve("data"), ConnectorFactory.standard())) {
      jobs.apply(P, "numbers", numbers("numbers"), null);
      awaitState(jobs, P, "numbers", ObservedState.RUNNING);

      await("sampled output", WAIT, () -> !jobs.output(P, "numbers", null).isEmpty());
      List<OutputRecord> recent = jobs.output(P, "numbers", null);
      assertThat(recent).allMatch(r -> r.operatorId().equals("out"))
          .allMatch(r -> r.fields().keySet().containsAll(List.of("id", "key", "value")));
      assertThat(recent).extracting(OutputRecord::emittedAt).isSorted();
      assertThat(jobs.output(P, "numbers", "numbers")).allMatch(r -> r.operatorId().equals("numbers"));
      assertThatThrownBy(() -> jobs.output(P, "numbers", "nope")).isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("by-key");

      List<OutputRecord> received = new CopyOnWriteArrayList<>();
      AtomicReference<String> ended = new AtomicReference<>();
      OutputSubscription sub = jobs.subscribeOutput(P, "numbers", "by-key", new OutputListener() {
        @Override
        public void records(List<OutputRecord> records) {
          assertThat(records).isNotEmpty();
          received.addAll(records);
        }

        @Override
        public void ended(String reason) {
          ended.set(reason);
        }
      });
      await("streamed output", WAIT, () -> received.size() > 2 * 100); // more than the kept backlog of 2 subtasks
      assertThat(received).allMatch(r -> r.operatorId().equals("by-key"));
      assertThat(received.stream().map(r -> r.subtask() + "/" + r.fields().get("id")).distinct().count())
          .as("nothing delivered twice").isEqualTo(received.size());
      sub.close();
      int atClose = received.size();

      OutputSubscription second = jobs.subscribeOutput(P, "numbers", null, new OutputListener() {
        @Override
        public void records(List<OutputRecord> records) {}

        @Override
        public void ended(String reason) {
          ended.set(reason);
        }
      });
      jobs.delete(P, "numbers", null);
      assertThat(ended.get()).contains("deleted");
      second.close();
      assertThat(received.size()).as("nothing after the close; at most a poll in flight").isLessThanOrEqualTo(
          atClose + 2 * io.tributary.worker.task.OutputTap.CAPACITY);
    }
  }
}
