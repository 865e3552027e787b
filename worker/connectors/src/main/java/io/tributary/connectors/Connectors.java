package io.tributary.connectors;

import io.tributary.connect.ClientSettings;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.StorageRoots;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connectors.datagen.DatagenSource;
import io.tributary.connectors.debug.BlackholeSink;
import io.tributary.connectors.debug.StdoutSink;
import io.tributary.connectors.file.FileSink;
import io.tributary.connectors.file.FileSource;
import io.tributary.connectors.internal.ConnectorProperties;
import io.tributary.connectors.internal.GeneratorStart;
import io.tributary.connectors.kafka.KafkaSink;
import io.tributary.connectors.kafka.KafkaSource;
import io.tributary.connectors.nexmark.NexmarkKind;
import io.tributary.connectors.nexmark.NexmarkSource;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Builds connectors from plans. Configuration errors are {@link ConnectorException}s whose
 * message names the connector and the property to fix. Property keys per type:
 *
 * <ul>
 *   <li>{@code file} source: {@code path} (a file, or a directory of files).
 *   <li>{@code datagen} source: {@code count} (omit: unbounded), {@code keys} (1000), {@code seed}
 *       (0), {@code interval} (1ms), {@code startTime} (epoch ms; see below).
 *   <li>{@code nexmark} source: {@code events} (omit: unbounded), {@code kind}
 *       (all|person|auction|bid), {@code seed} (0), {@code eventRate} (10000 per second), {@code
 *       startTime} (epoch ms; see below).
 *   <li>{@code kafka} source: {@code bootstrapServers}, {@code topic}, {@code startFrom}
 *       (earliest|latest, default earliest), {@code groupId}, {@code properties}.
 *   <li>{@code file} sink: {@code path} (a directory). {@code kafka} sink: {@code
 *       bootstrapServers}, {@code topic}, {@code keyFields}, {@code properties}, {@code delivery}
 *       (at-least-once|exactly-once|upsert, default at-least-once), {@code transactionalIdPrefix}
 *       and {@code transactionTimeout} (exactly-once only; see {@link KafkaSink}). {@code stdout} takes none; {@code
 *       blackhole} takes {@code maxRecordsPerSecond} (a slow downstream, for load tests; 0 or absent:
 *       as fast as records come) and {@code maxRecordsPerSecondPerSubtask} (a fixed cost per record:
 *       each subtask takes at most that many, so more subtasks take more).
 * </ul>
 *
 * <p>A generator's {@code startTime} is the event time of its first record. Without it, a bounded
 * generator starts at 2026-01-01T00:00:00Z (the same records on every run) and an unbounded one at
 * the current time when the job starts; with a {@code maxRecordsPerSecond} it also emits each record
 * only once the wall clock reaches its event time, so its event time keeps pace with the clock (else
 * it runs as fast as it is read); a restored generator continues the event times of its checkpoint
 * ({@link GeneratorStart}).
 */
public final class Connectors {
  private Connectors() {}

  /** The source a plan describes, with nothing restricted but client settings. */
  public static SourceConnector source(SourcePlan plan) {
    return source(plan, ConnectorPolicy.unrestricted());
  }

  /** The sink a plan describes, with nothing restricted but client settings. */
  public static SinkConnector sink(SinkPlan plan) {
    return sink(plan, ConnectorPolicy.unrestricted());
  }

  /**
   * The source a plan describes, within {@code policy}.
   *
   * @throws io.tributary.connect.AccessRefusedException if it names what the policy refuses
   */
  public static SourceConnector source(SourcePlan plan, ConnectorPolicy policy) {
    String type = lower(plan.type());
    ConnectorProperties p = new ConnectorProperties(type + " source '" + plan.id() + "'", plan.properties());
    requireJson(plan.format(), p);
    return switch (type) {
      case "file" -> new FileSource(plan.id(), path(p.allowOnly("path").string("path")), policy.files());
      case "datagen" -> datagen(plan.id(), p.allowOnly("count", "keys", "seed", "interval", "startTime"),
          plan.maxRecordsPerSecond() > 0);
      case "nexmark" -> nexmark(plan.id(), p.allowOnly("events", "kind", "seed", "eventRate", "startTime"),
          plan.maxRecordsPerSecond() > 0);
      case "kafka" -> kafkaSource(plan.id(),
          p.allowOnly("bootstrapServers", "topic", "startFrom", "groupId", "properties"), policy);
      default -> throw new ConnectorException("source '" + plan.id() + "': unknown type '" + plan.type()
          + "'; use one of file, datagen, nexmark, kafka");
    };
  }

  /**
   * The sink a plan describes, within {@code policy}.
   *
   * @throws io.tributary.connect.AccessRefusedException if it names what the policy refuses
   */
  public static SinkConnector sink(SinkPlan plan, ConnectorPolicy policy) {
    String type = lower(plan.type());
    ConnectorProperties p = new ConnectorProperties(type + " sink '" + plan.id() + "'", plan.properties());
    requireJson(plan.format(), p);
    return switch (type) {
      case "file" -> {
        boolean changelog = p.allowOnly("path", "changelog").bool("changelog", false);
        if (plan.upsertKey() != null && !changelog) {
          throw p.error("its input is an upsert stream: write it with changelog: true");
        }
        yield new FileSink(plan.id(), path(p.string("path")), policy.files(), changelog && plan.upsertKey() == null);
      }
      case "kafka" -> {
        policy.endpoints().check("kafka sink '" + plan.id() + "': bootstrapServers", p.string("bootstrapServers"));
        ClientSettings.check("kafka sink '" + plan.id() + "'", "kafka", true, p.stringMap("properties"));
        yield KafkaSink.fromProperties(plan.id(), p, plan.upsertKey());
      }
      case "stdout" -> {
        p.allowOnly();
        yield new StdoutSink();
      }
      case "blackhole" -> {
        p.allowOnly("maxRecordsPerSecond", "maxRecordsPerSecondPerSubtask");
        yield new BlackholeSink(plan.id(), p.positiveNumber("maxRecordsPerSecond", 0),
            p.positiveNumber("maxRecordsPerSecondPerSubtask", 0));
      }
      default -> throw new ConnectorException("sink '" + plan.id() + "': unknown type '" + plan.type()
          + "'; use one of file, kafka, stdout, blackhole");
    };
  }

  private static DatagenSource datagen(String id, ConnectorProperties p, boolean limited) {
    long count = p.longValue("count", Long.MAX_VALUE, 0);
    return new DatagenSource(id, count, p.longValue("keys", 1000, 1),
        p.longValue("seed", 0, Long.MIN_VALUE), p.millis("interval", 1),
        start(p, count != Long.MAX_VALUE, limited));
  }

  private static NexmarkSource nexmark(String id, ConnectorProperties p, boolean limited) {
    String kind = p.choice("kind", "all", "all", "person", "auction", "bid");
    long events = p.longValue("events", Long.MAX_VALUE, 0);
    return new NexmarkSource(id, events,
        kind.equals("all") ? null : NexmarkKind.valueOf(kind.toUpperCase(Locale.ROOT)),
        p.longValue("seed", 0, Long.MIN_VALUE), p.positiveNumber("eventRate", 10_000),
        start(p, events != Long.MAX_VALUE, limited));
  }

  /**
   * The spec's {@code startTime}; else 2026-01-01 when bounded, the wall clock when unbounded (kept
   * pace with when {@code limited}: the source has a maxRecordsPerSecond).
   */
  private static GeneratorStart start(ConnectorProperties p, boolean bounded, boolean limited) {
    if (p.has("startTime")) {
      return GeneratorStart.fixed(p.longValue("startTime", GeneratorStart.DEFAULT, Long.MIN_VALUE));
    }
    return bounded ? GeneratorStart.fixed(GeneratorStart.DEFAULT)
        : GeneratorStart.wallClock(System::currentTimeMillis, limited);
  }

  private static KafkaSource kafkaSource(String id, ConnectorProperties p, ConnectorPolicy policy) {
    policy.endpoints().check("kafka source '" + id + "': bootstrapServers", p.string("bootstrapServers"));
    ClientSettings.check("kafka source '" + id + "'", "kafka", false, p.stringMap("properties"));
    return new KafkaSource(id, p.string("bootstrapServers"), p.string("topic"),
        p.choice("startFrom", "earliest", "earliest", "latest"), p.string("groupId", null),
        p.stringMap("properties"));
  }

  /** A spec's path, decoded as the scheduler decoded it when it validated the spec. */
  private static Path path(String raw) {
    return StorageRoots.decode(raw);
  }

  private static void requireJson(String format, ConnectorProperties p) {
    if (format != null && !format.equalsIgnoreCase("json")) {
      throw p.error("format '" + format + "' is not supported; use json");
    }
  }

  private static String lower(String type) {
    return type == null ? "" : type.toLowerCase(Locale.ROOT);
  }
}
