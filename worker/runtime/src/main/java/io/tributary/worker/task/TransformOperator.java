package io.tributary.worker.task;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.ExpressionException;
import io.tributary.expr.Expressions;
import io.tributary.plan.TransformPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.window.WindowAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Filter, then projection, with SQL expressions compiled once per task. A record whose expression
 * cannot be evaluated (a type error, division by zero) is counted as malformed and dropped; it never
 * stops the job. Or, for a plan with a window, its assignment to windows ({@link WindowAssignment});
 * a record without a timestamp is then malformed.
 */
final class TransformOperator implements Operator {
  private final TransformPlan plan;
  private CompiledExpression filter;
  private Schema outSchema;
  private CompiledExpression[] select;
  private OperatorMetrics metrics;
  private WindowAssignment windows;

  TransformOperator(TransformPlan plan) {
    this.plan = plan;
  }

  @Override
  public void open(OperatorContext context) {
    metrics = context.metrics();
    if (plan.window() != null) {
      windows = new WindowAssignment(plan.window());
    }
    if (plan.filter() != null) {
      filter = Expressions.compile(plan.filter());
    }
    if (plan.select() != null) {
      List<String> names = new ArrayList<>();
      List<CompiledExpression> exprs = new ArrayList<>();
      for (Map.Entry<String, String> e : plan.select().entrySet()) {
        names.add(e.getKey());
        exprs.add(Expressions.compile(e.getValue()));
      }
      outSchema = Schema.of(names);
      select = exprs.toArray(new CompiledExpression[0]);
    }
  }

  @Override
  public void processElement(Record record, Output out) {
    if (windows != null) {
      if (!windows.assign(record, out::emit)) {
        metrics.incMalformed();
      }
      return;
    }
    try {
      if (filter != null && !filter.test(record)) {
        return;
      }
      if (select == null) {
        out.emit(record);
        return;
      }
      Object[] values = new Object[select.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = select[i].eval(record);
      }
      out.emit(new Record(outSchema, values, record.timestamp()));
    } catch (ExpressionException e) {
      metrics.incMalformed();
    }
  }
}
