package io.tributary.worker.join;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.Expressions;
import io.tributary.plan.JoinPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Makes a join's output from a pair of records, by the rule of {@link JoinPlan}: the joined row
 * ({@code window_start} and {@code window_end} for a window join, every left field, every right
 * field by its own name or as {@code r.<name>} when the name is taken, a right key field named as
 * the left key it equals left out), then the residual {@code filter} and the {@code select} over
 * that row plus {@code l.<name>} and {@code r.<name>} for every field of either side.
 *
 * <p>Layouts are cached per pair of schemas (schemas are interned). Expressions are compiled here:
 * one instance per operator instance.
 */
final class JoinRows {
  static final String WINDOW_START = "window_start";
  static final String WINDOW_END = "window_end";
  /** {@link Layout#from} entries for the window's bounds. */
  private static final int FROM_WINDOW_START = -1;
  private static final int FROM_WINDOW_END = -2;

  private final List<String> leftKeys;
  private final List<String> rightKeys;
  private final boolean windowed;
  private final CompiledExpression filter;
  private final Schema selectSchema;
  private final CompiledExpression[] select;
  private Schema cachedLeft;
  private Schema cachedRight;
  private Layout cached;

  /**
   * Where each field of the evaluated row comes from: {@code from[i]} is a left field's index, a
   * right field's index plus the left's size, or a window bound; the first {@code rowSize} fields
   * are the joined row, the others the qualified names only expressions read.
   */
  private record Layout(Schema row, Schema evaluated, int[] from, int leftSize) {
    int rowSize() {
      return row.size();
    }
  }

  JoinRows(JoinPlan plan) {
    this.leftKeys = plan.leftKeys();
    this.rightKeys = plan.rightKeys();
    this.windowed = plan.type() == JoinPlan.Type.WINDOW;
    this.filter = plan.filter() == null ? null : Expressions.compile(plan.filter());
    if (plan.select() == null) {
      this.selectSchema = null;
      this.select = null;
    } else {
      this.selectSchema = Schema.of(new ArrayList<>(plan.select().keySet()));
      this.select = plan.select().values().stream().map(Expressions::compile).toArray(CompiledExpression[]::new);
    }
  }

  /**
   * The output of the pair ({@code windowStart}, {@code windowEnd} only for a window join),
   * timestamped {@code timestamp}; null when the filter does not hold.
   *
   * @throws io.tributary.expr.ExpressionException when the filter or select cannot be evaluated
   */
  Record join(Record left, Record right, long windowStart, long windowEnd, long timestamp) {
    Layout layout = layout(left.schema(), right.schema());
    boolean expressions = filter != null || select != null;
    int size = expressions ? layout.from().length : layout.rowSize();
    Object[] values = new Object[size];
    for (int i = 0; i < size; i++) {
      int from = layout.from()[i];
      values[i] = from == FROM_WINDOW_START ? (Object) windowStart
          : from == FROM_WINDOW_END ? (Object) windowEnd
          : from < layout.leftSize() ? left.values()[from] : right.values()[from - layout.leftSize()];
    }
    if (!expressions) {
      return new Record(layout.row(), values, timestamp);
    }
    Record evaluated = new Record(layout.evaluated(), values, timestamp);
    if (filter != null && !filter.test(evaluated)) {
      return null;
    }
    if (select == null) {
      return new Record(layout.row(), Arrays.copyOf(values, layout.rowSize()), timestamp);
    }
    Object[] out = new Object[select.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = select[i].eval(evaluated);
    }
    return new Record(selectSchema, out, timestamp);
  }

  private Layout layout(Schema left, Schema right) {
    if (left != cachedLeft || right != cachedRight) {
      cached = newLayout(left, right);
      cachedLeft = left;
      cachedRight = right;
    }
    return cached;
  }

  private Layout newLayout(Schema left, Schema right) {
    List<String> names = new ArrayList<>();
    List<Integer> from = new ArrayList<>();
    if (windowed) {
      add(names, from, WINDOW_START, FROM_WINDOW_START);
      add(names, from, WINDOW_END, FROM_WINDOW_END);
    }
    int n = left.size();
    for (int i = 0; i < n; i++) {
      if (!names.contains(left.name(i))) {
        add(names, from, left.name(i), i);
      }
    }
    for (int j = 0; j < right.size(); j++) {
      String name = right.name(j);
      if (!names.contains(name)) {
        add(names, from, name, n + j);
      } else if (!equalKeyOfTheSameName(name) && !(windowed && isWindowField(name))
          && !names.contains("r." + name)) {
        add(names, from, "r." + name, n + j);
      }
    }
    int rowSize = names.size();
    for (int i = 0; i < n; i++) {
      addIfAbsent(names, from, "l." + left.name(i), i);
    }
    for (int j = 0; j < right.size(); j++) {
      addIfAbsent(names, from, "r." + right.name(j), n + j);
    }
    return new Layout(Schema.of(names.subList(0, rowSize)), Schema.of(names),
        from.stream().mapToInt(Integer::intValue).toArray(), n);
  }

  /** Whether a right field is a key whose left key has its name: equal values, so the row has it once. */
  private boolean equalKeyOfTheSameName(String name) {
    for (int k = 0; k < rightKeys.size(); k++) {
      if (rightKeys.get(k).equals(name) && leftKeys.get(k).equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isWindowField(String name) {
    return name.equals(WINDOW_START) || name.equals(WINDOW_END);
  }

  private static void add(List<String> names, List<Integer> from, String name, int source) {
    names.add(name);
    from.add(source);
  }

  private static void addIfAbsent(List<String> names, List<Integer> from, String name, int source) {
    if (!names.contains(name)) {
      add(names, from, name, source);
    }
  }

  /** For tests of the rule: the joined row's field names for a pair of schemas. */
  List<String> rowFields(Schema left, Schema right) {
    return layout(left, right).row().names();
  }
}
