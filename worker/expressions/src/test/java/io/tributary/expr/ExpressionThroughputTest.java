package io.tributary.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * A throughput sanity check: evaluates typical filters and a projection over ~5M records in ten
 * passes, prints the best pass's records/s (no timing assertion: the machine is shared), and
 * checks the results against plain Java.
 */
class ExpressionThroughputTest {
  private static final int PASSES = 10;
  private static final int ROUNDS_PER_PASS = 500_000 / 4096;
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
    double perBatch = measure("price > 1000", r -> e.test(r) ? 1 : 0);
    assertThat(perBatch).isEqualTo(expected(r -> (Long) r.get("price") > 1000 ? 1 : 0));
  }

  @Test
  void filterOnAuctionModulo() {
    CompiledExpression e = Expressions.compile("auction % 123 = 0");
    double perBatch = measure("auction % 123 = 0", r -> e.test(r) ? 1 : 0);
    assertThat(perBatch).isEqualTo(expected(r -> (Long) r.get("auction") % 123 == 0 ? 1 : 0));
  }

  @Test
  void projectionOfPrice() {
    CompiledExpression e = Expressions.compile("price * 0.908");
    double perBatch = measure("price * 0.908", r -> (Double) e.eval(r));
    assertThat(perBatch).isEqualTo(expected(r -> (Long) r.get("price") * 0.908));
  }

  private double expected(ToDoubleFunction<Record> f) {
    double sum = 0;
    for (Record r : batch) {
      sum += f.applyAsDouble(r);
    }
    return sum;
  }

  /** Runs the passes, prints the best rate, and returns the per-batch sum of the last round. */
  private double measure(String sql, ToDoubleFunction<Record> f) {
    double best = 0;
    double sum = 0;
    for (int pass = 0; pass < PASSES; pass++) {
      long start = System.nanoTime();
      for (int round = 0; round < ROUNDS_PER_PASS; round++) {
        sum = 0;
        for (Record r : batch) {
          sum += f.applyAsDouble(r);
        }
      }
      best = Math.max(best, ROUNDS_PER_PASS * (double) batch.length * 1e9 / (System.nanoTime() - start));
    }
    System.out.printf("expression throughput: %-20s %,15.0f records/s (best of %d passes of %,d records)%n",
        sql, best, PASSES, ROUNDS_PER_PASS * batch.length);
    return sum;
  }
}
