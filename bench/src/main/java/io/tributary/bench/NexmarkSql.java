package io.tributary.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.connectors.nexmark.NexmarkIds;
import io.tributary.connectors.nexmark.NexmarkKind;
import io.tributary.scheduler.spec.sql.SqlJobs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The Nexmark queries in SQL, as {@code examples/nexmark/} has them (packaged into this module's
 * jar under {@code nexmark/}), compiled to job specs over a given number of Nexmark events: each
 * table reads the events of its kind among the stream's first {@code events} (persons, auctions
 * and bids 1:3:46), so all tables of a query see the same stream, ids matching.
 */
final class NexmarkSql {
  /** The queries of {@code examples/nexmark/}, in the suite's order. */
  static final List<String> NAMES = List.of("q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q9", "q11",
      "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22");
  private static final ObjectMapper JSON = new ObjectMapper();

  private NexmarkSql() {}

  /** The SQL text of query {@code name}. */
  static String text(String name) {
    try (InputStream in = NexmarkSql.class.getResourceAsStream("/nexmark/" + name + ".sql")) {
      if (in == null) {
        throw new IllegalArgumentException("no SQL for Nexmark query '" + name + "' in this build");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The job spec (JSON) of query {@code name} over the first {@code events} Nexmark events, named
   * {@code nexmark-<name>}, at {@code parallelism} on {@code stateBackend}.
   */
  static String spec(String name, long events, int parallelism, String stateBackend) {
    try {
      ObjectNode spec = (ObjectNode) JSON.readTree(SqlJobs.compile(text(name), "nexmark-" + name).specJson());
      spec.put("name", "nexmark-" + name);
      spec.put("parallelism", parallelism);
      spec.putObject("state").put("backend", stateBackend);
      for (JsonNode source : spec.path("sources")) {
        if (source.path("type").asText().equals("nexmark")) {
          NexmarkKind kind = NexmarkKind.valueOf(source.path("kind").asText().toUpperCase(Locale.ROOT));
          ((ObjectNode) source).put("events", eventsOf(kind, events));
        }
      }
      return JSON.writeValueAsString(spec);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many of the first {@code events} Nexmark events are of {@code kind}. */
  static long eventsOf(NexmarkKind kind, long events) {
    long low = 0; // the kind's event numbers grow with their index: the first index at or past events
    long high = events;
    while (low < high) {
      long mid = (low + high) >>> 1;
      if (NexmarkIds.eventNumber(kind, mid) < events) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
