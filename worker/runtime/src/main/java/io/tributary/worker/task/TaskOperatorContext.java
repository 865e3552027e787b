package io.tributary.worker.task;

import io.tributary.state.KeyedStateBackend;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.TimerService;

/** The runtime's {@link OperatorContext}. */
record TaskOperatorContext(
    String jobName, String operatorId, int subtaskIndex, int parallelism, int maxParallelism,
    KeyedStateBackend state, TimerService timerService, OperatorMetrics metrics) implements OperatorContext {

  @Override
  public KeyedStateBackend keyedState() {
    if (state == null) {
      throw new IllegalStateException("operator " + operatorId + " is not keyed: it has no keyed state");
    }
    return state;
  }

  @Override
  public TimerService timers() {
    if (timerService == null) {
      throw new IllegalStateException("operator " + operatorId + " is not keyed: it has no timers");
    }
    return timerService;
  }
}
