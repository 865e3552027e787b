package io.tributary.worker.join;

import io.tributary.plan.JoinPlan;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.testkit.OperatorHarness;
import io.tributary.testkit.Script;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** Harnesses and random inputs for the join tests: heap or forst state, one shared object store. */
final class JoinHarnesses {
  static final Schema BID = Schema.of("auction", "price", "ts");
  static final Schema AUCTION = Schema.of("id", "seller", "ts");

  private JoinHarnesses() {}

  /** Harnesses of {@code plan} on the heap ({@code forstDir} null) or on forst, each under its own directory. */
  static Supplier<OperatorHarness> harnesses(JoinPlan plan, Path forstDir) {
    return harnesses(plan, forstDir, -1);
  }

  /** The same, forst's state cache holding {@code stateCacheEntries} entries (negative: its default). */
  static Supplier<OperatorHarness> harnesses(JoinPlan plan, Path forstDir, long stateCacheEntries) {
    InMemoryObjectStore store = new InMemoryObjectStore();
    AtomicInteger n = new AtomicInteger();
    return () -> {
      OperatorHarness h = OperatorHarness.of(() -> Joins.create(plan))
          .timerNamespaceCodec(Joins.namespaceCodec(plan)).objectStore(store);
      if (forstDir == null) {
        return h;
      }
      Path dir = forstDir.resolve("h" + n.incrementAndGet());
      return stateCacheEntries < 0 ? h.forstState(dir) : h.forstState(dir, stateCacheEntries);
    };
  }

  static List<KeySelector> keys(JoinPlan plan) {
    return List.of(new KeySelector(plan.leftKeys()), new KeySelector(plan.rightKeys()));
  }

  static Record bid(long auction, long price, long ts) {
    return new Record(BID, new Object[] {auction, price, ts}, ts);
  }

  static Record auction(long id, String seller, long ts) {
    return new Record(AUCTION, new Object[] {id, seller, ts}, ts);
  }

  /**
   * Random bids (left) and auctions (right) over a few keys, in time order, then delivered in an
   * order where each record comes at most {@code bound - 1} ms after a later one: the watermark, max
   * seen minus {@code bound}, never passes a record still to come.
   */
  static Script shuffledWithinBound(Random random, long bound, int records) {
    List<Object[]> timed = new ArrayList<>(); // {input, record, arrival}
    long ts = random.nextInt(1000);
    for (int i = 0; i < records; i++) {
      ts += random.nextInt(3) == 0 ? 0 : random.nextInt(20); // records of one time too, kept in one entry
      long key = random.nextInt(4);
      boolean left = random.nextInt(3) > 0;
      Record r = left ? bid(key, random.nextInt(100), ts) : auction(key, "s" + random.nextInt(5), ts);
      timed.add(new Object[] {left ? 0 : 1, r, ts + random.nextInt((int) bound)});
    }
    timed.sort(Comparator.comparingLong(o -> (Long) o[2]));
    Script script = Script.create();
    long maxSeen = Long.MIN_VALUE;
    for (Object[] o : timed) {
      Record r = (Record) o[1];
      script.record((Integer) o[0], r);
      if (r.timestamp() > maxSeen) {
        maxSeen = r.timestamp();
        script.watermark(maxSeen - bound);
      }
    }
    return script;
  }

  /** The records of one input of {@code script}. */
  static List<Record> input(Script script, int input) {
    return script.steps().stream().filter(s -> s instanceof Script.Element e && e.input() == input)
        .map(s -> ((Script.Element) s).record()).toList();
  }

  /** Counts per output row, for comparing multisets in failure messages that stay readable. */
  static Map<Map<String, Object>, Integer> counts(List<Record> records) {
    Map<Map<String, Object>, Integer> m = new HashMap<>();
    for (Record r : records) {
      Map<String, Object> row = new java.util.LinkedHashMap<>(r.asMap());
      row.put("@", r.timestamp());
      m.merge(row, 1, Integer::sum);
    }
    return m;
  }
}
