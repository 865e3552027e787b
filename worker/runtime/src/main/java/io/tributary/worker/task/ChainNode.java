package io.tributary.worker.task;

import io.tributary.plan.OperatorPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Watermark;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.TwoInputOperator;
import io.tributary.worker.timer.TaskTimers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One operator of a task's chain with its outputs: chained operators are called directly, exchanges
 * get serialized elements. Also tracks the operator's watermark and the one waiting to be applied
 * while its due timers fire.
 */
final class ChainNode {
  final OperatorPlan plan;
  final Operator operator;
  final OperatorMetrics metrics = new OperatorMetrics();
  final List<ChainNode> children = new ArrayList<>();
  final List<ExchangeOutput> exchanges = new ArrayList<>();
  final Map<String, List<ChainNode>> sideChildren = new HashMap<>();
  final Map<String, List<ExchangeOutput>> sideExchanges = new HashMap<>();
  final Output output = new NodeOutput();
  TaskTimers timers;
  /**
   * The keyed state's snapshot at the task's last barrier (null before one, or when that
   * checkpoint failed on the task thread), and whether the state was left exactly as that snapshot
   * when the task ended, so it may be kept open for the next attempt.
   */
  java.util.concurrent.CompletableFuture<io.tributary.state.StateSnapshot> keyedAt;
  boolean keepState;
  /** The codec of the namespaces the operator's timers have; null when it has no timers. */
  io.tributary.state.StateCodec<?> timerNamespaces;
  OperatorContext context;
  long watermark = Watermark.NONE;
  long pendingWatermark = Watermark.NONE;
  long recordsIn;
  long recordsOut;
  /** A sample of the operator's main output; a sink's is a sample of the records it was given. */
  final OutputTap tap;
  private final boolean tapsInput;

  ChainNode(OperatorPlan plan, Operator operator) {
    this(plan, operator, 0);
  }

  ChainNode(OperatorPlan plan, Operator operator, int subtask) {
    this.plan = plan;
    this.operator = operator;
    this.tap = new OutputTap(plan == null ? "?" : plan.id(), subtask);
    this.tapsInput = operator instanceof SinkOperator;
  }

  /** The operator's keyed state, or null when it is not keyed. */
  io.tributary.state.KeyedStateBackend keyedState() {
    return context instanceof TaskOperatorContext c ? c.state() : null;
  }

  boolean hasPendingWatermark() {
    return pendingWatermark > watermark;
  }

  void offerWatermark(long wm) {
    if (wm > pendingWatermark) {
      pendingWatermark = wm;
    }
  }

  void process(Record record) {
    recordsIn++;
    if (tapsInput && tap.budget > 0) {
      tap.take(record);
    }
    operator.processElement(record, output);
  }

  /**
   * A record that arrived on input {@code input} of this operator: a {@link TwoInputOperator} is
   * told which; any other operator takes records of all its inputs alike (a union).
   */
  void process(int input, Record record) {
    if (operator instanceof TwoInputOperator two) {
      recordsIn++;
      two.processElement(input, record, output);
    } else {
      process(record);
    }
  }

  private final class NodeOutput implements Output {
    @Override
    public void emit(Record record) {
      recordsOut++;
      if (tap.budget > 0) {
        tap.take(record);
      }
      for (int i = 0, n = children.size(); i < n; i++) {
        children.get(i).process(record);
      }
      for (int i = 0, n = exchanges.size(); i < n; i++) {
        exchanges.get(i).writeRecord(record);
      }
    }

    @Override
    public void emitSide(String name, Record record) {
      List<ChainNode> nodes = sideChildren.get(name);
      if (nodes != null) {
        for (ChainNode c : nodes) {
          c.process(record);
        }
      }
      List<ExchangeOutput> outs = sideExchanges.get(name);
      if (outs != null) {
        for (ExchangeOutput e : outs) {
          e.writeRecord(record);
        }
      }
    }
  }
}
