package io.tributary.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.connectors.nexmark.NexmarkGenerator;
import io.tributary.connectors.nexmark.NexmarkIds;
import io.tributary.connectors.nexmark.NexmarkKind;
import io.tributary.stream.Record;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The bounded input of the Nexmark golden tests, written to files once: the first {@link #EVENTS}
 * Nexmark events (one table per kind, each event's fields as the generator makes them, times as
 * epoch milliseconds), in an arrival order that is not event time: each event arrives up to
 * {@link #DISORDER_MILLIS} late, less than the queries' watermark bound (4 s), so no event is late.
 */
final class NexmarkGoldenInput {
  /** Events of the stream, all kinds: 200 persons, 600 auctions, 9,200 bids. */
  static final int EVENTS = 10_000;
  /** Events a second of event time: the events span 100 s, ten 10-second windows. */
  static final double EVENT_RATE = 100;
  /** The most an event arrives behind its event time. */
  static final int DISORDER_MILLIS = 3_000;
  private static final long SEED = 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private NexmarkGoldenInput() {}

  /** Writes {@code person.jsonl}, {@code auction.jsonl} and {@code bid.jsonl} into {@code dir}. */
  static void write(Path dir) throws IOException {
    NexmarkGenerator generator = new NexmarkGenerator(SEED, EVENT_RATE);
    Random arrival = new Random(SEED);
    Map<NexmarkKind, List<long[]>> order = new EnumMap<>(NexmarkKind.class);
    Map<Long, String> lines = new LinkedHashMap<>();
    for (long n = 0; n < EVENTS; n++) {
      Record r = generator.eventOfKind(n);
      order.computeIfAbsent(NexmarkIds.kindOf(n), k -> new ArrayList<>())
          .add(new long[] {generator.eventTime(n) + arrival.nextInt(DISORDER_MILLIS), n});
      lines.put(n, json(r));
    }
    for (Map.Entry<NexmarkKind, List<long[]>> kind : order.entrySet()) {
      List<long[]> events = kind.getValue();
      events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
      try (Writer w = Files.newBufferedWriter(dir.resolve(kind.getKey().eventType() + ".jsonl"), StandardCharsets.UTF_8)) {
        for (long[] e : events) {
          w.write(lines.get(e[1]));
          w.write('\n');
        }
      }
    }
  }

  private static String json(Record r) throws IOException {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < r.schema().size(); i++) {
      fields.put(r.schema().name(i), r.get(i));
    }
    return JSON.writeValueAsString(fields);
  }
}
