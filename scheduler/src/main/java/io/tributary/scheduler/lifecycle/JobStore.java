package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.Page;
import io.tributary.protocol.Failure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The job records of every project in the {@link MetadataStore}, at
 * {@code projects/<project>/jobs/<name>} (see {@link ControlKeys}). Thread-safe; every write is a
 * compare-and-set on the record's version.
 *
 * <p><b>If-Match.</b> A caller's precondition is a nullable version: null for none, 0 for "the job
 * must not exist" ({@code If-None-Match: *}), else the version the caller read ({@code If-Match}).
 * {@link #checkIfMatch} throws {@link PreconditionFailedException} when it does not hold.
 */
public final class JobStore {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MetadataStore metadata;

  /** One page of a project's jobs, in name order. */
  public record Listing(List<JobRecord> records, String nextPageToken) {
    public Listing {
      records = List.copyOf(records);
    }
  }

  public JobStore(MetadataStore metadata) {
    this.metadata = metadata;
  }

  /** The record of job {@code name} in {@code project}, if any. */
  public Optional<JobRecord> get(String project, String name) {
    return metadata.get(ControlKeys.job(project, name)).map(JobStore::decode);
  }

  /**
   * Stores {@code record} if the stored one is at {@code expectedVersion}.
   *
   * @param expectedVersion 0 to create the record, else the version it was read at
   * @return the record with its new version
   * @throws ConflictException if the stored version differs
   */
  public JobRecord put(JobRecord record, long expectedVersion) {
    long v = metadata.put(ControlKeys.job(record.project(), record.name()), encode(record), expectedVersion);
    return record.withVersion(v);
  }

  /**
   * Deletes the record if it is at {@code version}.
   *
   * @throws ConflictException if it is gone or at another version
   */
  public void delete(String project, String name, long version) {
    metadata.delete(ControlKeys.job(project, name), version);
  }

  /**
   * One page of the jobs of {@code project}, in name order; stable across pages while jobs are added
   * or removed (a page continues after the last name of the previous one).
   *
   * @param pageToken null for the first page, else {@link Listing#nextPageToken()} of the previous one
   * @param limit 1 to {@link MetadataStore#MAX_PAGE_SIZE}
   * @throws InvalidRequestException naming {@code limit} or {@code pageToken}
   */
  public Listing list(String project, String pageToken, int limit) {
    if (limit < 1 || limit > MetadataStore.MAX_PAGE_SIZE) {
      throw new InvalidRequestException("limit", "must be between 1 and " + MetadataStore.MAX_PAGE_SIZE + ", got "
          + limit);
    }
    Page page;
    try {
      page = metadata.query(ControlKeys.jobs(project), Optional.ofNullable(pageToken), limit);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("pageToken", "not a page token of this list: " + pageToken);
    }
    return new Listing(page.items().stream().map(JobStore::decode).toList(), page.continuation().orElse(null));
  }

  /**
   * Throws unless the precondition {@code ifMatch} holds for {@code current}.
   *
   * @param ifMatch null (no precondition), 0 (must not exist) or the expected version
   * @throws PreconditionFailedException naming both versions
   */
  public static void checkIfMatch(String what, Long ifMatch, Optional<JobRecord> current) {
    if (ifMatch == null) {
      return;
    }
    long actual = current.map(JobRecord::version).orElse(0L);
    if (actual != ifMatch) {
      throw new PreconditionFailedException(what, ifMatch, actual);
    }
  }

  static byte[] encode(JobRecord r) {
    ObjectNode n = JSON.createObjectNode()
        .put("project", r.project())
        .put("name", r.name())
        .put("spec", r.spec())
        .put("fingerprint", r.fingerprint())
        .put("desired", r.desired().name())
        .put("restore", RestorePolicies.format(r.restore()))
        .put("generation", r.generation())
        .put("createdAt", r.createdAt().toString())
        .put("updatedAt", r.updatedAt().toString());
    if (r.parallelism() != null) {
      n.put("parallelism", r.parallelism());
    }
    if (r.sql() != null) {
      n.put("sql", r.sql());
    }
    if (!r.stageParallelism().isEmpty()) {
      ObjectNode stages = n.putObject("stageParallelism");
      r.stageParallelism().forEach(stages::put);
    }
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  static JobRecord decode(Item item) {
    JsonNode n = readJson(item);
    RestorePolicy restore = RestorePolicies.parse(n.path("restore").asText("latest"));
    Integer parallelism = n.hasNonNull("parallelism") ? n.get("parallelism").asInt() : null;
    java.util.Map<String, Integer> stages = new java.util.TreeMap<>();
    n.path("stageParallelism").fields().forEachRemaining(e -> stages.put(e.getKey(), e.getValue().asInt()));
    return new JobRecord(n.path("project").asText(), n.path("name").asText(), n.path("spec").asText(),
        n.path("fingerprint").asText(), DesiredState.valueOf(n.path("desired").asText()), restore, parallelism, stages,
        n.path("generation").asLong(), Instant.parse(n.path("createdAt").asText()),
        Instant.parse(n.path("updatedAt").asText()), item.version(), n.hasNonNull("sql") ? n.get("sql").asText() : null);
  }

  static JsonNode readJson(Item item) {
    try {
      return JSON.readTree(item.value());
    } catch (IOException e) {
      throw new OperationFailedException("corrupt control-plane item " + item.key() + ": " + e.getMessage(),
          Failure.Domain.INTERNAL, false, e);
    }
  }
}
