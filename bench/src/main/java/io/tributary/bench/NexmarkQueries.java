package io.tributary.bench;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The queries of {@code bench nexmark} as Tributary job specs over a bounded stream, each ending in
 * a blackhole sink: the Nexmark queries over generated bids, and {@code keyed-window}, a keyed
 * window over the {@code datagen} source with few records per key and window. Where a query needs
 * a join we do not have yet, the spec computes the aggregate part and says so.
 */
final class NexmarkQueries {
  /** Where a query's records come from. */
  enum Input {
    /** Nexmark bids ({@code nexmark} source, kind bid, default seed and rate), event time {@code dateTime}. */
    BIDS("bids: {type: nexmark, kind: bid, events: %d, eventTime: {field: dateTime, maxOutOfOrderness: 0s}}"),
    /**
     * {@code datagen} records {@code {id, key, value, ts}}: {@value #KEYS} keys, one record a
     * millisecond of event time, default seed, event time {@code ts}.
     */
    RECORDS("records: {type: datagen, count: %d, keys: %d, interval: 1ms, eventTime: {field: ts, maxOutOfOrderness: 0s}}");

    /** The keys of the {@code datagen} input. */
    static final int KEYS = 10_000;

    private final String source;

    Input(String source) {
      this.source = source;
    }

    /** The spec's source of {@code events} records ({@code keys} of them for {@link #RECORDS}). */
    String source(long events, long keys) {
      return this == RECORDS ? String.format(source, events, keys) : String.format(source, events);
    }
  }

  /**
   * The shape of {@code keyed-window}: keys of its input and the size of its tumbling windows
   * (about {@code keys × (1 - e^(-window ms / keys))} windows are open at once, one record a
   * millisecond). {@link #DEFAULT}: {@value Input#KEYS} keys, 10 s.
   */
  record Shape(long keys, String window) {
    static final Shape DEFAULT = new Shape(Input.KEYS, "10s");
  }

  private record Query(Input input, String body) {}

  private static final Map<String, Query> QUERIES = new TreeMap<>();

  static {
    QUERIES.put("q0", bids("""
        # q0: pass-through
        operators: []
        sinks: {out: {input: bids, type: blackhole}}
        """));
    QUERIES.put("q1", bids("""
        # q1: currency conversion
        operators:
          - {id: q1, input: bids, select: {auction: auction, bidder: bidder, price: "price * 0.908", dateTime: dateTime}}
        sinks: {out: {input: q1, type: blackhole}}
        """));
    QUERIES.put("q2", bids("""
        # q2: selection
        operators:
          - {id: q2, input: bids, filter: "auction % 123 = 0", select: {auction: auction, price: price}}
        sinks: {out: {input: q2, type: blackhole}}
        """));
    QUERIES.put("q5", bids("""
        # q5: hot items: bids per auction in sliding 10 s / 2 s windows, then the largest count per window
        operators:
          - {id: counts, input: bids, keyBy: [auction], window: {type: sliding, size: 10s, slide: 2s}, aggregate: {num: "count(*)"}}
          - {id: hottest, input: counts, window: {type: tumbling, size: 2s}, aggregate: {max_num: "max(num)"}}
        sinks: {out: {input: hottest, type: blackhole}}
        """));
    QUERIES.put("q7", bids("""
        # q7: highest bid per 10 s tumbling window (the aggregate; the join back to the bid is not run)
        operators:
          - {id: highest, input: bids, window: {type: tumbling, size: 10s}, aggregate: {max_price: "max(price)"}}
        sinks: {out: {input: highest, type: blackhole}}
        """));
    QUERIES.put("q11", bids("""
        # q11: user sessions: bids per bidder in session windows with a 10 s gap
        operators:
          - {id: sessions, input: bids, keyBy: [bidder], window: {type: session, gap: 10s}, aggregate: {bid_count: "count(*)"}}
        sinks: {out: {input: sessions, type: blackhole}}
        """));
    QUERIES.put("count", bids("""
        # count: bids per auction in 10 s tumbling windows (the keyed window count compared with a plain loop)
        operators:
          - {id: counts, input: bids, keyBy: [auction], window: {type: tumbling, size: 10s}, aggregate: {num: "count(*)"}}
        sinks: {out: {input: counts, type: blackhole}}
        """));
    QUERIES.put("keyed-window", new Query(Input.RECORDS, """
        # keyed-window: per key (of 10,000 unless --keys), tumbling count(*) and sum(value) (10 s unless --window),
        # one record a millisecond: by default about 1.6 records per key and window, so the cost is windows,
        # timers and firing, not aggregation
        operators:
          - {id: windows, input: records, keyBy: [key], window: {type: tumbling, size: %WINDOW%}, aggregate: {n: "count(*)", total: "sum(value)"}}
        sinks: {out: {input: windows, type: blackhole}}
        """));
    QUERIES.put("keyed-sliding", new Query(Input.RECORDS, """
        # keyed-sliding: per key (of 10,000 unless --keys), count(*) and max(value) in windows of a minute
        # every 5 s, so each record is in 12 windows; one record a millisecond: with --keys 1000, 5 records
        # per key and slide (on the heap, the window's panes take them: one accumulator per record)
        operators:
          - {id: windows, input: records, keyBy: [key], window: {type: sliding, size: 60s, slide: 5s}, aggregate: {n: "count(*)", high: "max(value)"}}
        sinks: {out: {input: windows, type: blackhole}}
        """));
  }

  private NexmarkQueries() {}

  private static Query bids(String body) {
    return new Query(Input.BIDS, body);
  }

  /** The input of query {@code name}. */
  static Input input(String name) {
    return query(name).input();
  }

  private static Query query(String name) {
    Query q = QUERIES.get(name);
    if (q == null) {
      throw new IllegalArgumentException("unknown query '" + name + "'; known: " + QUERIES.keySet());
    }
    return q;
  }

  static Iterable<String> names() {
    return QUERIES.keySet();
  }

  /**
   * A job that grows keyed state as fast as it reads: unbounded bids keyed by {@code key} (with
   * (bidder, auction, extra) nearly every bid opens a key), one-day windows (open for the whole
   * run), {@code aggregates} aggregates per window, into a blackhole.
   */
  static String stateSpec(String name, int parallelism, String stateBackend, List<String> key, int aggregates) {
    String[] fields = {"price", "auction", "bidder", "dateTime"};
    String[] functions = {"sum", "min", "max", "avg"};
    StringBuilder aggs = new StringBuilder("n: \"count(*)\"");
    for (int i = 1; i < aggregates; i++) {
      int f = (i - 1) % fields.length;
      int fn = (i - 1) / fields.length % functions.length;
      int round = (i - 1) / (fields.length * functions.length);
      String arg = round == 0 ? fields[f] : fields[f] + " * " + (round + 1);
      aggs.append(", a").append(i).append(": \"").append(functions[fn]).append('(').append(arg).append(")\"");
    }
    return "name: " + name + "\n"
        + "parallelism: " + parallelism + "\n"
        + "state: {backend: " + stateBackend + "}\n"
        + "sources:\n"
        + "  bids: {type: nexmark, kind: bid, eventTime: {field: dateTime, maxOutOfOrderness: 0s}}\n"
        + "operators:\n"
        + "  - {id: pairs, input: bids, keyBy: [" + String.join(", ", key) + "],"
        + " window: {type: tumbling, size: 1d}, aggregate: {" + aggs + "}}\n"
        + "sinks: {out: {input: pairs, type: blackhole}}\n";
  }

  /** The whole spec of query {@code name} over {@code events} input records. */
  static String spec(String name, long events, int parallelism, String stateBackend) {
    return spec(name, events, parallelism, stateBackend, Shape.DEFAULT);
  }

  /** The same, {@code keyed-window} of the given shape. */
  static String spec(String name, long events, int parallelism, String stateBackend, Shape shape) {
    Query q = query(name);
    return "name: " + (q.input() == Input.BIDS ? "nexmark-" : "") + name + "\n"
        + "parallelism: " + parallelism + "\n"
        + "state: {backend: " + stateBackend + "}\n"
        + "sources:\n"
        + "  " + q.input().source(events, shape.keys()) + "\n"
        + q.body().replace("%WINDOW%", shape.window());
  }
}
