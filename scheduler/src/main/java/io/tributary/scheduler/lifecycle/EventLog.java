package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lifecycle events of every job, persisted one item per event at
 * {@code projects/<project>/events/<name>/<seq>} and bounded: a job keeps its last {@value #RETAINED}
 * events. Appends of one job are numbered in the order they are made; replicas appending to the same
 * store take the next free number. Thread-safe.
 */
public final class EventLog {
  /** Events kept per job. */
  public static final int RETAINED = 200;
  /** Longest message kept, in characters. */
  static final int MAX_MESSAGE = 4000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MetadataStore metadata;
  private final Clock clock;
  private final Map<String, Long> lastSeq = new HashMap<>();

  public EventLog(MetadataStore metadata, Clock clock) {
    this.metadata = metadata;
    this.clock = clock;
  }

  /** Records an event of job {@code name}; drops the oldest beyond {@value #RETAINED}. */
  public JobEvent append(String project, String name, JobEvent.Type type, ObservedState from, ObservedState to,
      String message) {
    String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
    synchronized (this) {
      String prefix = ControlKeys.events(project, name);
      long seq = lastSeq.computeIfAbsent(prefix, p -> trimAndFindLast(project, name)) + 1;
      JobEvent event;
      while (true) {
        event = new JobEvent(seq, clock.instant(), type, from, to, text);
        try {
          metadata.put(ControlKeys.event(project, name, seq), encode(event), 0);
          break;
        } catch (ConflictException e) {
          seq = trimAndFindLast(project, name) + 1; // another replica appended meanwhile
        }
      }
      lastSeq.put(prefix, seq);
      if (seq > RETAINED) {
        String oldest = ControlKeys.event(project, name, seq - RETAINED);
        try {
          metadata.get(oldest).ifPresent(i -> metadata.delete(oldest, i.version()));
        } catch (ConflictException e) {
          // another replica dropped it first
        }
      }
      return event;
    }
  }

  /** The retained events of job {@code name}, oldest first. */
  public List<JobEvent> list(String project, String name) {
    return metadata.queryAll(ControlKeys.events(project, name)).stream().map(EventLog::decode).toList();
  }

  /** Forgets every event of job {@code name} (when the job is deleted). */
  public synchronized void deleteAll(String project, String name) {
    for (Item i : metadata.queryAll(ControlKeys.events(project, name))) {
      metadata.delete(i.key(), i.version());
    }
    lastSeq.remove(ControlKeys.events(project, name));
  }

  /** The last stored seq (0 if none), after deleting what lies beyond the bound. */
  private long trimAndFindLast(String project, String name) {
    List<Item> items = metadata.queryAll(ControlKeys.events(project, name));
    for (int i = 0; i < items.size() - RETAINED; i++) {
      try {
        metadata.delete(items.get(i).key(), items.get(i).version());
      } catch (ConflictException e) {
        // another replica dropped it first
      }
    }
    return items.isEmpty() ? 0 : decode(items.get(items.size() - 1)).seq();
  }

  private static byte[] encode(JobEvent e) {
    ObjectNode n = JSON.createObjectNode().put("seq", e.seq()).put("time", e.time().toString())
        .put("type", e.type().name()).put("message", e.message());
    if (e.from() != null) {
      n.put("from", e.from().name());
    }
    if (e.to() != null) {
      n.put("to", e.to().name());
    }
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static JobEvent decode(Item item) {
    JsonNode n = JobStore.readJson(item);
    return new JobEvent(n.path("seq").asLong(), Instant.parse(n.path("time").asText()),
        type(n.path("type").asText()), state(n.get("from")), state(n.get("to")), n.path("message").asText());
  }

  /**
   * The event's type; one this version does not know (written by a newer replica sharing the table,
   * during an upgrade) reads as {@link JobEvent.Type#STATE_CHANGED}, its message intact.
   */
  static JobEvent.Type type(String name) {
    try {
      return JobEvent.Type.valueOf(name);
    } catch (IllegalArgumentException e) {
      return JobEvent.Type.STATE_CHANGED;
    }
  }

  private static ObservedState state(JsonNode n) {
    return n == null || n.isNull() ? null : ObservedState.valueOf(n.asText());
  }
}
