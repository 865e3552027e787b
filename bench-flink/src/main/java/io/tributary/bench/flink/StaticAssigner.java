package io.tributary.bench.flink;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Gives each registering reader the splits whose index (the Tributary split {@code i-of-P}'s
 * position in the list) is its subtask index modulo the parallelism, then tells it there are no
 * more.
 */
final class StaticAssigner implements SplitEnumerator<TributarySplit, List<TributarySplit>> {
  private final SplitEnumeratorContext<TributarySplit> context;
  private final List<TributarySplit> unassigned;
  private final List<String> order;

  StaticAssigner(SplitEnumeratorContext<TributarySplit> context, List<TributarySplit> splits) {
    this.context = context;
    this.order = splits.stream().map(TributarySplit::id).toList();
    this.unassigned = new ArrayList<>(splits);
  }

  @Override
  public void start() {}

  @Override
  public void handleSplitRequest(int subtask, String hostname) {}

  @Override
  public void addSplitsBack(List<TributarySplit> splits, int subtask) {
    unassigned.addAll(splits);
  }

  @Override
  public void addReader(int subtask) {
    int parallelism = context.currentParallelism();
    for (Iterator<TributarySplit> it = unassigned.iterator(); it.hasNext(); ) {
      TributarySplit s = it.next();
      if (order.indexOf(s.id()) % parallelism == subtask) {
        context.assignSplit(s, subtask);
        it.remove();
      }
    }
    context.signalNoMoreSplits(subtask);
  }

  @Override
  public List<TributarySplit> snapshotState(long checkpointId) {
    return new ArrayList<>(unassigned);
  }

  @Override
  public void close() {}
}
