package io.tributary.bench.flink;

import io.tributary.connect.SourceConnector;
import io.tributary.connectors.Connectors;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * A query's input as Tributary's source connector makes it, for Flink: the source is built by
 * Tributary's {@link Connectors} from the properties the Tributary query's spec gives it (the
 * {@code bids} and {@code records} sources of the bench module's {@code NexmarkQueries}), so both
 * engines read the same records in the same order, split for split; each record is converted to a
 * Flink POJO whose event time is the same field.
 *
 * @param <T> the Flink type of a record
 */
abstract class Input<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String id;
  private final String type;
  private final HashMap<String, Object> properties;

  private Input(String id, String type, Map<String, Object> properties) {
    this.id = id;
    this.type = type;
    this.properties = new HashMap<>(properties);
  }

  /** Nexmark bids: {@code {type: nexmark, kind: bid, events: N}} (default seed and rate). */
  static Input<Bid> bids(long events) {
    return new Input<>("bids", "nexmark", Map.of("kind", "bid", "events", events)) {
      private static final long serialVersionUID = 1L;

      @Override
      Bid convert(Record r) {
        return Bid.of(r);
      }

      @Override
      long timestamp(Bid bid) {
        return bid.dateTime;
      }
    };
  }

  /** The keyed-window input: {@code {type: datagen, count: N, keys: 10000, interval: 1ms}}. */
  static Input<Datum> records(long count) {
    return new Input<>("records", "datagen", Map.of("count", count, "keys", 10_000, "interval", "1ms")) {
      private static final long serialVersionUID = 1L;

      @Override
      Datum convert(Record r) {
        return Datum.of(r);
      }

      @Override
      long timestamp(Datum d) {
        return d.ts;
      }
    };
  }

  /** A new instance of the Tributary source connector. */
  SourceConnector connector() {
    return Connectors.source(new SourcePlan(id, type, null, null, 0, null, properties));
  }

  /** The Flink record of a Tributary record. */
  abstract T convert(Record r);

  /** Its event time (epoch ms), the field the Tributary query takes event time from. */
  abstract long timestamp(T value);
}
