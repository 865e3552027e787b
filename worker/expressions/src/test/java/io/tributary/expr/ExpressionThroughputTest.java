package io.tributary.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A throughput sanity check: prints records/s for typical filters and a projection over ~5M
 * records (no timing assertion), and checks the results against plain Java.
 */
class ExpressionThroughputTest {
  private static final int RECORDS = 5_000_000;
  private final Record[] batch = batch(4096, 42);

  private static Record[] batch(int n, long seed) {
    Random random = new Random(seed);
    Schema schema = Schema.of("auction", "bidder", "price", "channel", "dateTime");
    Record[] records = new Record[n];
    for (int i = 0; i < n; i++) {
      Object[] values = {1000L + random.nextInt(10_000), (long) random.nextInt(100_000),
          (long) random.nextInt(2_000), "channel-" + random.nextInt(10), 1_700_000_000_000L + i};
      records[i] = new Record(schema, values, Record.NO_TIMESTAMP);
    }
    return records;
  }

  @Test
  void filterOnPrice() {
    CompiledExpression e = Expressions.compile("price > 1000");
    long expected = 0;
    for (Record r : batch) {
      expected += (Long) r.get("price") > 1000 ? 1 : 0;
    }
    assertThat(runFilter("price > 1000", e)).isEqualTo(expected * (RECORDS / batch.length));
  }

  @Test
  void filterOnAuctionModulo() {
    CompiledExpression e = Expressions.compile("auction % 123 = 0");
    long expected = 0;
    for (Record r : batch) {
      expected += (Long) r.get("auction") % 123 == 0 ? 1 : 0;
    }
    assertThat(runFilter("auction % 123 = 0", e)).isEqualTo(expected * (RECORDS / batch.length));
  }

  @Test
  void projectionOfPrice() {
    CompiledExpression e = Expressions.compile("price * 0.908");
    double expected = 0;
    for (Record r : batch) {
      expected += (Long) r.get("price") * 0.908;
    }
    warmUp(e);
    int rounds = RECORDS / batch.length;
    double sum = 0;
    long start = System.nanoTime();
    for (int round = 0; round < rounds; round++) {
      for (Record r : batch) {
        sum += (Double) e.eval(r);
      }
    }
    report("price * 0.908", rounds * (long) batch.length, System.nanoTime() - start);
    assertThat(sum).isCloseTo(expected * rounds, org.assertj.core.data.Percentage.withPercentage(1e-6));
  }

  private long runFilter(String sql, CompiledExpression e) {
    warmUp(e);
    int rounds = RECORDS / batch.length;
    long passed = 0;
    long start = System.nanoTime();
    for (int round = 0; round < rounds; round++) {
      for (Record r : batch) {
        passed += e.test(r) ? 1 : 0;
      }
    }
    report(sql, rounds * (long) batch.length, System.nanoTime() - start);
    return passed;
  }

  /** One million evaluations so that the printed figure is mostly compiled code. */
  private void warmUp(CompiledExpression e) {
    long sink = 0;
    for (int round = 0; round < 1_000_000 / batch.length; round++) {
      for (Record r : batch) {
        sink += e.eval(r) == null ? 1 : 0;
      }
    }
    assertThat(sink).isZero();
  }

  private static void report(String sql, long records, long nanos) {
    System.out.printf("expression throughput: %-20s %,15.0f records/s (%,d records, after 1M warm-up)%n",
        sql, records * 1e9 / nanos, records);
  }
}
