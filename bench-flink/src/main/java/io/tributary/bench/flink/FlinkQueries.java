package io.tributary.bench.flink;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * The queries of Tributary's {@code bench nexmark} as Flink DataStream jobs, each ending in a
 * {@link CountingSink}. They do what the Tributary specs do, and what Tributary's plan does
 * around them: a keyed window receives only its key and aggregate arguments (Tributary's exchange
 * projects records to those; here a map chained to the source does), with event time carried by
 * the record; watermarks are the largest event time so far less 1 ms ({@code
 * maxOutOfOrderness: 0s}); results are rows of key, window bounds and aggregates, stamped with the
 * window's end less 1 ms.
 */
final class FlinkQueries {
  /** The queries both engines run. */
  static final List<String> NAMES = List.of("q0", "q1", "q2", "q5", "q7", "q11", "count", "keyed-window",
      "keyed-sliding");

  private static final TypeInformation<Results.Keyed> KEYED = TypeInformation.of(Results.Keyed.class);
  private static final TypeInformation<Results.Global> GLOBAL = TypeInformation.of(Results.Global.class);

  private FlinkQueries() {}

  /**
   * Adds query {@code name} over {@code events} input records to {@code env}; with {@code
   * asyncState}, its keyed windows use Flink's asynchronous state API (what ForSt is made for).
   */
  static void add(StreamExecutionEnvironment env, String name, long events, boolean asyncState) {
    if (name.equals("keyed-window")) {
      keyedWindow(records(env, events), asyncState);
      return;
    }
    if (name.equals("keyed-sliding")) {
      keyedSliding(records(env, events), asyncState);
      return;
    }
    DataStream<Bid> bids = bids(env, events);
    switch (name) {
      case "q0" -> bids.sinkTo(new CountingSink<>());
      case "q1" -> bids.map(b -> Tuple4.of(b.auction, b.bidder, b.price * 0.908, b.dateTime))
          .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.DOUBLE, Types.LONG)).sinkTo(new CountingSink<>());
      case "q2" -> bids.filter(b -> b.auction % 123 == 0).map(b -> Tuple2.of(b.auction, b.price))
          .returns(Types.TUPLE(Types.LONG, Types.LONG)).sinkTo(new CountingSink<>());
      case "q5" -> hotItems(bids, asyncState);
      case "q7" -> bids.map(b -> b.price).returns(Types.LONG)
          .windowAll(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
          .aggregate(new Results.Max(), new Results.GlobalMax(), Types.LONG, GLOBAL)
          .sinkTo(new CountingSink<>());
      case "q11" -> keyedCount(bids.map(b -> b.bidder).returns(Types.LONG),
          EventTimeSessionWindows.withGap(Duration.ofSeconds(10)), asyncState).sinkTo(new CountingSink<>());
      case "count" -> keyedCount(bids.map(b -> b.auction).returns(Types.LONG),
          TumblingEventTimeWindows.of(Duration.ofSeconds(10)), asyncState).sinkTo(new CountingSink<>());
      default -> throw new IllegalArgumentException("unknown query '" + name + "'; known: " + NAMES);
    }
  }

  private static DataStream<Bid> bids(StreamExecutionEnvironment env, long events) {
    return env.fromSource(new TributarySource<>(Input.bids(events)), watermarks(Input.bids(events)), "bids",
        TypeInformation.of(Bid.class));
  }

  private static DataStream<Datum> records(StreamExecutionEnvironment env, long events) {
    return env.fromSource(new TributarySource<>(Input.records(events)), watermarks(Input.records(events)),
        "records", TypeInformation.of(Datum.class));
  }

  /** Event time from the same field as Tributary's; the watermark the largest so far less 1 ms. */
  private static <T> WatermarkStrategy<T> watermarks(Input<T> input) {
    return WatermarkStrategy.<T>forBoundedOutOfOrderness(Duration.ZERO)
        .withTimestampAssigner((value, previous) -> input.timestamp(value));
  }

  /** q5: bids per auction in sliding 10 s / 2 s windows, then the largest count per 2 s window. */
  private static void hotItems(DataStream<Bid> bids, boolean asyncState) {
    keyedCount(bids.map(b -> b.auction).returns(Types.LONG),
        SlidingEventTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(2)), asyncState)
        .map(r -> r.count).returns(Types.LONG)
        .windowAll(TumblingEventTimeWindows.of(Duration.ofSeconds(2)))
        .aggregate(new Results.Max(), new Results.GlobalMax(), Types.LONG, GLOBAL)
        .sinkTo(new CountingSink<>());
  }

  private static DataStream<Results.Keyed> keyedCount(DataStream<Long> keys,
      WindowAssigner<Object, TimeWindow> windows, boolean asyncState) {
    KeyedStream<Long, Long> keyed = keys.keyBy(k -> k, Types.LONG);
    return window(keyed, windows, asyncState)
        .aggregate(new Results.Count<>(), new Results.KeyedCount(), Types.LONG, KEYED);
  }

  /** keyed-window: per key, 10 s tumbling count(*) and sum(value). */
  private static void keyedWindow(DataStream<Datum> records, boolean asyncState) {
    KeyedStream<KeyValue, Long> keyed = records.map(d -> new KeyValue(d.key, d.value))
        .returns(KeyValue.class).keyBy(kv -> kv.key, Types.LONG);
    window(keyed, TumblingEventTimeWindows.of(Duration.ofSeconds(10)), asyncState)
        .aggregate(new Results.CountAndSum(), new Results.KeyedCountSum(),
            TypeInformation.of(Results.CountSum.class), KEYED)
        .sinkTo(new CountingSink<>());
  }

  /** keyed-sliding: per key, count(*) and max(value) in 60 s windows every 5 s. */
  private static void keyedSliding(DataStream<Datum> records, boolean asyncState) {
    KeyedStream<KeyValue, Long> keyed = records.map(d -> new KeyValue(d.key, d.value))
        .returns(KeyValue.class).keyBy(kv -> kv.key, Types.LONG);
    window(keyed, SlidingEventTimeWindows.of(Duration.ofSeconds(60), Duration.ofSeconds(5)), asyncState)
        .aggregate(new Results.CountAndMax(), new Results.KeyedCountMax(),
            TypeInformation.of(Results.CountMax.class), KEYED)
        .sinkTo(new CountingSink<>());
  }

  private static <T> WindowedStream<T, Long, TimeWindow> window(KeyedStream<T, Long> keyed,
      WindowAssigner<Object, TimeWindow> windows, boolean asyncState) {
    WindowedStream<T, Long, TimeWindow> w = keyed.window(windows);
    return asyncState ? w.enableAsyncState() : w;
  }
}
