package io.tributary.worker.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Accumulators in state: without distinct values they are written exactly as before distinct
 * values existed (so state of earlier versions reads back); with them, the values come back too.
 */
class AccumulatorCodecTest {
  private static final Schema BID = Schema.of("bidder", "price");

  @Test
  void withoutDistinctValuesTheBytesAreThoseOfTheEarlierFormat() throws IOException {
    Aggregates aggregates = new Aggregates(List.of(new AggregatePlan("n", Function.COUNT, null),
        new AggregatePlan("top", Function.MAX, "price")));
    Accumulator acc = aggregates.newAccumulator();
    aggregates.evaluate(new Record(BID, new Object[] {1L, 7L}, 0));
    aggregates.addTo(acc);
    acc.revision = 2;

    ByteArrayOutputStream earlier = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(earlier);
    out.writeLong(2);
    out.writeBoolean(false);
    out.writeShort(2);
    out.writeLong(1);
    out.writeBoolean(false);
    out.writeLong(0);
    out.writeLong(1);
    out.writeBoolean(false);
    out.writeLong(7);
    assertThat(write(acc)).isEqualTo(earlier.toByteArray());
    Accumulator back = read(earlier.toByteArray());
    Object[] results = new Object[2];
    aggregates.results(back, results, 0);
    assertThat(results).containsExactly(1L, 7L);
    assertThat(back.revision).isEqualTo(2);
  }

  @Test
  void distinctValuesRoundTripAndMerge() throws IOException {
    Aggregates aggregates = new Aggregates(List.of(new AggregatePlan("bidders", Function.COUNT_DISTINCT, "bidder"),
        new AggregatePlan("n", Function.COUNT, null), new AggregatePlan("prices", Function.COUNT_DISTINCT, "price")));
    Accumulator a = aggregates.newAccumulator();
    Accumulator b = aggregates.newAccumulator();
    Object[][] rows = {{1L, 5L}, {1, 5.0}, {2L, null}, {"x", 5L}};
    for (int i = 0; i < rows.length; i++) {
      aggregates.evaluate(new Record(BID, rows[i], i));
      aggregates.addTo(i < 2 ? a : b);
    }
    Accumulator merged = aggregates.newAccumulator();
    aggregates.mergeInto(merged, read(write(a)));
    aggregates.mergeInto(merged, read(write(b)));
    Object[] results = new Object[3];
    aggregates.results(merged, results, 0);
    assertThat(results).as("bidders 1, 2, 'x' (1 and Integer 1 alike); prices 5 and 5.0; nulls not counted")
        .containsExactly(3L, 4L, 2L);
    assertThat(AccumulatorCodec.INSTANCE.copy(merged).distinct[0]).isEqualTo(merged.distinct[0])
        .isNotSameAs(merged.distinct[0]);
  }

  private static byte[] write(Accumulator acc) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AccumulatorCodec.INSTANCE.write(acc, new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  private static Accumulator read(byte[] bytes) throws IOException {
    return AccumulatorCodec.INSTANCE.read(new DataInputStream(new ByteArrayInputStream(bytes)));
  }
}
