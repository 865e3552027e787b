package io.tributary.worker.operator;

import io.tributary.state.KeyedStateBackend;

/** What the runtime offers an operator. */
public interface OperatorContext {
  /** The job's name. */
  String jobName();

  /** The operator's id in the plan. */
  String operatorId();

  int subtaskIndex();

  int parallelism();

  int maxParallelism();

  /** Keyed state for the key groups of this subtask; only for keyed operators (else throws). */
  KeyedStateBackend keyedState();

  /** Event-time timers; only for keyed operators (else throws). */
  TimerService timers();

  /** Counters published in progress reports and metrics. */
  OperatorMetrics metrics();
}
