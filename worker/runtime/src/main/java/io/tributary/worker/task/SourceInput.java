package io.tributary.worker.task;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.stream.Watermark;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads a source subtask's splits round robin and makes watermarks per split (contract C3): a
 * split's watermark is the largest event time it produced minus maxOutOfOrderness (minus 1 ms, so
 * a record exactly at the bound is still on time, as in Flink), recomputed every
 * {@value #WATERMARK_INTERVAL} records of that split, so watermarks depend on the records read and
 * not on timing. The subtask's watermark is the minimum over splits that have neither ended nor
 * gone idle; a split without records for idleTimeout is idle until it produces again.
 */
final class SourceInput implements TaskInput, SplitOutput {
  static final int WATERMARK_INTERVAL = 128;
  private static final int BATCH = 256;

  private final SourcePlan plan;
  private final SourceConnector connector;
  private final List<SourceSplit> assigned;
  private final ChainNode head;
  private final double recordsPerSecond;
  private final List<Split> splits = new ArrayList<>();
  private final java.util.Map<String, io.tributary.checkpoint.SplitState> restored;
  private StreamTask task;
  private Split currentSplit;
  private int next;
  private int ended;
  private int emptyReadsInRow;
  private long combined = Watermark.NONE;
  private boolean signalledEnd;
  private long throttleStart;
  private long throttled;
  private Schema timeSchema;
  private int timeIndex = -1;

  private static final class Split {
    final SourceSplit split;
    SplitReader reader;
    long maxTimestamp = Long.MIN_VALUE;
    long watermark = Watermark.NONE;
    int sinceWatermark;
    long lastRecordNanos = System.nanoTime();
    boolean idle;
    boolean ended;
    /** The reader's position when the split ended (a reader is closed then). */
    String position;

    Split(SourceSplit split) {
      this.split = split;
    }
  }

  /**
   * @param assigned the splits of this subtask
   * @param recordsPerSecond this subtask's share of maxRecordsPerSecond; 0 = unlimited
   */
  SourceInput(SourcePlan plan, SourceConnector connector, List<SourceSplit> assigned, ChainNode head,
      double recordsPerSecond) {
    this(plan, connector, assigned, head, recordsPerSecond, java.util.Map.of());
  }

  /** @param restored split states of the checkpoint to resume from, by split id (empty: from the start) */
  SourceInput(SourcePlan plan, SourceConnector connector, List<SourceSplit> assigned, ChainNode head,
      double recordsPerSecond, java.util.Map<String, io.tributary.checkpoint.SplitState> restored) {
    this.restored = restored;
    this.plan = plan;
    this.connector = connector;
    this.assigned = assigned;
    this.head = head;
    this.recordsPerSecond = recordsPerSecond;
  }

  @Override
  public void open(StreamTask task) {
    this.task = task;
    for (SourceSplit s : assigned) {
      Split st = new Split(s);
      io.tributary.checkpoint.SplitState saved = restored.get(s.id());
      if (saved == null) {
        st.reader = connector.open(s);
      } else {
        st.maxTimestamp = saved.maxTimestamp();
        st.watermark = saved.watermark();
        st.sinceWatermark = saved.sinceWatermark();
        st.position = saved.position();
        if (saved.ended()) {
          st.ended = true;
          ended++;
        } else {
          st.reader = connector.open(s, saved.position());
        }
      }
      splits.add(st);
    }
    if (!restored.isEmpty() && ended < splits.size()) {
      recomputeWatermark(); // resume with the restored splits' watermarks
    }
    throttleStart = System.nanoTime();
  }

  @Override
  public int step() {
    if (ended == splits.size()) {
      if (!signalledEnd) {
        signalledEnd = true;
        task.advanceWatermark(Long.MAX_VALUE);
      }
      return END;
    }
    int budget = throttleBudget();
    if (budget == 0) {
      return NOTHING;
    }
    Split s = nextSplit();
    currentSplit = s;
    if (plan.eventTime() != null) {
      // end the batch where the split's watermark is due, so it goes out right after that record
      budget = Math.min(budget, WATERMARK_INTERVAL - s.sinceWatermark);
    }
    long readStart = System.nanoTime();
    int n = s.reader.read(this, budget);
    if (n == 0) {
      // a reader may wait a little for its system (a Kafka poll): that wait found nothing, so idle
      task.times().addIdle(System.nanoTime() - readStart);
    }
    currentSplit = null;
    throttled += Math.max(n, 0);
    if (n == SplitReader.END) {
      s.ended = true;
      ended++;
      s.position = s.reader.position();
      s.reader.close();
      recomputeWatermark();
      return MORE;
    }
    if (n > 0) {
      emptyReadsInRow = 0;
      return MORE;
    }
    checkIdle(s);
    return ++emptyReadsInRow >= splits.size() - ended ? NOTHING : MORE;
  }

  private Split nextSplit() {
    while (true) {
      Split s = splits.get(next);
      next = (next + 1) % splits.size();
      if (!s.ended) {
        return s;
      }
    }
  }

  /** This subtask's share of its source's {@code maxRecordsPerSecond}; 0: unlimited. */
  double recordsPerSecond() {
    return recordsPerSecond;
  }

  private int throttleBudget() {
    if (recordsPerSecond <= 0) {
      return BATCH;
    }
    double elapsed = (System.nanoTime() - throttleStart) / 1e9;
    long allowed = (long) (elapsed * recordsPerSecond) + 1 - throttled;
    return (int) Math.max(0, Math.min(BATCH, allowed));
  }

  @Override
  public long maxWaitNanos() {
    long wait = TimeUnit.MILLISECONDS.toNanos(1);
    if (recordsPerSecond > 0) {
      wait = Math.max(wait, (long) (1e9 / recordsPerSecond));
    }
    return Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50));
  }

  // ---- SplitOutput ----

  @Override
  public void record(Record record) {
    Split s = currentSplit;
    EventTimePlan et = plan.eventTime();
    if (et != null) {
      long ts = eventTime(record, et.field());
      if (ts == Record.NO_TIMESTAMP) {
        return; // counted as malformed by eventTime()
      }
      record = record.withTimestamp(ts);
      if (ts > s.maxTimestamp) {
        s.maxTimestamp = ts;
      }
    }
    if (s.idle) {
      s.idle = false;
      recomputeWatermark();
    }
    if (et != null && et.idleTimeoutMillis() > 0) {
      s.lastRecordNanos = System.nanoTime();
    }
    task.processRecord(head, record);
    if (et != null && ++s.sinceWatermark >= WATERMARK_INTERVAL) {
      s.sinceWatermark = 0;
      updateSplitWatermark(s, et);
    }
  }

  @Override
  public void malformed(String raw, String reason) {
    head.metrics.incMalformed();
    if (plan.deadLetterOutput() != null) {
      head.output.emitSide(plan.deadLetterOutput(), JsonRecords.deadLetter(plan.id(), raw, reason));
    }
  }

  private long eventTime(Record record, String field) {
    if (record.schema() != timeSchema) {
      timeSchema = record.schema();
      timeIndex = timeSchema.indexOf(field);
    }
    Object v = timeIndex < 0 ? null : record.values()[timeIndex];
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String str) {
      try {
        return Instant.parse(str).toEpochMilli();
      } catch (DateTimeParseException e) {
        malformed(JsonRecords.toJson(record), "event time field '" + field + "' is not an ISO-8601 instant: " + str);
        return Record.NO_TIMESTAMP;
      }
    }
    malformed(JsonRecords.toJson(record), v == null
        ? "missing event time field '" + field + "'"
        : "event time field '" + field + "' is neither epoch milliseconds nor an ISO-8601 instant");
    return Record.NO_TIMESTAMP;
  }

  // ---- watermarks and idleness ----

  private void updateSplitWatermark(Split s, EventTimePlan et) {
    if (s.maxTimestamp == Long.MIN_VALUE) {
      return;
    }
    long wm = s.maxTimestamp - et.maxOutOfOrdernessMillis() - 1;
    if (wm > s.watermark) {
      s.watermark = wm;
      recomputeWatermark();
    }
  }

  /** The split had nothing to read: publish its progress, and mark it idle after idleTimeout. */
  private void checkIdle(Split s) {
    EventTimePlan et = plan.eventTime();
    if (et == null || s.idle || s.ended) {
      return;
    }
    if (s.sinceWatermark > 0) {
      // caught up with a live split: its watermark need not wait for more records
      s.sinceWatermark = 0;
      updateSplitWatermark(s, et);
    }
    if (et.idleTimeoutMillis() > 0
        && System.nanoTime() - s.lastRecordNanos >= TimeUnit.MILLISECONDS.toNanos(et.idleTimeoutMillis())) {
      s.idle = true;
      recomputeWatermark();
    }
  }

  private void recomputeWatermark() {
    if (ended == splits.size()) {
      return; // step() sends the final watermark
    }
    long min = Long.MAX_VALUE;
    boolean anyActive = false;
    for (Split s : splits) {
      if (!s.ended && !s.idle) {
        anyActive = true;
        min = Math.min(min, s.watermark);
      }
    }
    if (!anyActive) {
      task.setIdle(true);
      return;
    }
    if (min > combined) {
      combined = min;
      task.advanceWatermark(min);
    }
  }

  /** Every assigned split's position and watermark progress; task thread, between reads. */
  List<io.tributary.checkpoint.SplitState> splitStates() {
    List<io.tributary.checkpoint.SplitState> out = new ArrayList<>(splits.size());
    for (Split s : splits) {
      String position = s.ended || s.reader == null ? s.position : s.reader.position();
      out.add(new io.tributary.checkpoint.SplitState(s.split.id(), position, s.maxTimestamp, s.watermark,
          s.sinceWatermark, s.ended));
    }
    return out;
  }

  @Override
  public void close() {
    for (Split s : splits) {
      if (!s.ended && s.reader != null) {
        s.reader.close();
      }
    }
  }
}
