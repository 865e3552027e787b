package io.tributary.worker.pool;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.WorkerException;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.task.ConnectorFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs attempts in this process: one worker with as many slots as asked for, tasks as threads
 * ({@link LocalAttempt}), in-process channels. The embedded default of the server and what
 * {@code tributary run} uses. A reporter thread sends every attempt's metrics every
 * {@value #METRICS_MILLIS} ms (unless told otherwise) and its new output samples every {@value #OUTPUT_MILLIS} ms.
 */
public final class InProcessWorkerPool implements WorkerPool {
  /** The id of this pool's one worker. */
  public static final String WORKER = "in-process";
  static final long METRICS_MILLIS = 1000;
  static final long OUTPUT_MILLIS = 200;

  /**
   * What the pool's tasks use.
   *
   * @param stateBackends keyed state backends by name
   * @param connectors creates sources and sinks (tests substitute their own)
   * @param credits buffers a receiver accepts per channel (contract C2)
   * @param checkpointStore where tasks write the checkpoint objects they own (timers), or null if no
   *     attempt checkpoints
   */
  public record Options(Map<String, StateBackendFactory> stateBackends, ConnectorFactory connectors, int credits,
      ObjectStore checkpointStore) {
    public Options {
      stateBackends = Map.copyOf(stateBackends);
      Objects.requireNonNull(connectors, "connectors");
      if (credits < 1) {
        throw new IllegalArgumentException("credits must be >= 1, got " + credits);
      }
    }

    /** The built-in connectors and the default credit, no checkpoint store. */
    public static Options of(Map<String, StateBackendFactory> stateBackends) {
      return new Options(stateBackends, ConnectorFactory.standard(), InProcessChannel.DEFAULT_CREDITS, null);
    }

    public Options withConnectors(ConnectorFactory c) {
      return new Options(stateBackends, c, credits, checkpointStore);
    }

    public Options withCredits(int n) {
      return new Options(stateBackends, connectors, n, checkpointStore);
    }

    public Options withCheckpointStore(ObjectStore store) {
      return new Options(stateBackends, connectors, credits, store);
    }
  }

  private final Options options;
  private final ConcurrentMap<AttemptId, LocalAttempt> attempts = new ConcurrentHashMap<>();
  private final ScheduledExecutorService reporter;

  public InProcessWorkerPool(Options options) {
    this(options, Duration.ofMillis(METRICS_MILLIS));
  }

  /** A pool that reports its attempts' metrics every {@code metricsInterval} (benchmarks: finer timing). */
  public InProcessWorkerPool(Options options, Duration metricsInterval) {
    if (metricsInterval.toMillis() < 10) {
      throw new IllegalArgumentException("the metrics interval must be at least 10 ms, got " + metricsInterval);
    }
    this.options = options;
    this.reporter = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "in-process-reports");
      t.setDaemon(true);
      return t;
    });
    reporter.scheduleWithFixedDelay(() -> each(LocalAttempt::reportMetrics), metricsInterval.toMillis(),
        metricsInterval.toMillis(), TimeUnit.MILLISECONDS);
    reporter.scheduleWithFixedDelay(() -> each(LocalAttempt::reportOutput), OUTPUT_MILLIS, OUTPUT_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  private void each(java.util.function.Consumer<LocalAttempt> report) {
    for (LocalAttempt a : attempts.values()) {
      try {
        report.accept(a);
      } catch (RuntimeException e) {
        // a listener that failed must not stop the reports of the others
        System.getLogger(InProcessWorkerPool.class.getName()).log(System.Logger.Level.WARNING,
            "reporting " + a.id() + " failed", e);
      }
    }
  }

  /** Always grants: this process runs as many tasks as it is given. */
  @Override
  public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
    return List.of(new WorkerSlots(WORKER, slots));
  }

  @Override
  public void deploy(AttemptDeployment deployment, WorkerReports reports) {
    LocalAttempt a;
    try {
      a = LocalAttempt.start(deployment, WORKER, options, reports);
    } catch (RuntimeException e) {
      throw new WorkerException(Failures.classify(e), e);
    }
    LocalAttempt before = attempts.put(deployment.attempt(), a);
    if (before != null) {
      closeQuietly(before);
    }
  }

  @Override
  public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
    triggerCheckpoint(attempt, checkpointId, false);
  }

  @Override
  public void triggerCheckpoint(AttemptId attempt, long checkpointId, boolean stopSources) {
    LocalAttempt a = attempts.get(attempt);
    if (a != null) {
      a.trigger(checkpointId, stopSources);
    }
  }

  @Override
  public void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint) {
    LocalAttempt a = attempts.get(attempt);
    if (a != null) {
      try {
        a.commit(checkpoint.committables());
      } catch (RuntimeException e) {
        throw new WorkerException(Failures.classify(e), e);
      }
    }
  }

  @Override
  public void cancel(AttemptId attempt) {
    LocalAttempt a = attempts.get(attempt);
    if (a != null) {
      try {
        a.cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void release(AttemptId attempt) {
    LocalAttempt a = attempts.remove(attempt);
    if (a != null) {
      closeQuietly(a);
    }
  }

  /** The attempt's tasks in this process, or null: for in-process observers (tests, benchmarks). */
  public LocalAttempt attempt(AttemptId attempt) {
    return attempts.get(attempt);
  }

  @Override
  public void close() {
    reporter.shutdownNow();
    for (AttemptId id : List.copyOf(attempts.keySet())) {
      release(id);
    }
  }

  private static void closeQuietly(LocalAttempt a) {
    try {
      a.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
