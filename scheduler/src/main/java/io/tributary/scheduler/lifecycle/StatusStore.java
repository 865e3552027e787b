package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.FencedException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.protocol.Failure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What the control plane observed of each job, at {@code projects/<project>/status/<name>}: kept
 * apart from the job's record so that it changes without moving the record's ETag. Written only by
 * the job's {@link ManagedJob}, under its lock, on the leading replica (fenced by its epoch).
 */
final class StatusStore {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @param failure why it FAILED, else null
   * @param recovery what a new run restores if the current one must be started again from scratch
   *     (after a control-plane restart): what it started from, until it completes a checkpoint;
   *     then the latest checkpoint
   * @param restarts automatic restarts after failures since the job was created
   * @param tasks where the tasks of its current attempt run (empty when none is deployed), so that
   *     every replica shows them
   */
  record Status(ObservedState observed, JobFailure failure, RestorePolicy recovery, long restarts,
      List<TaskPlacement> tasks) {
    Status {
      tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    Status(ObservedState observed, JobFailure failure, RestorePolicy recovery, long restarts) {
      this(observed, failure, recovery, restarts, List.of());
    }
  }

  private final MetadataStore metadata;
  private final LongSupplier controlEpoch;

  /**
   * @param controlEpoch the leader's epoch ({@link Leadership#epoch()}), stamped on every status it
   *     writes; throws if this process does not lead
   */
  StatusStore(MetadataStore metadata, LongSupplier controlEpoch) {
    this.metadata = metadata;
    this.controlEpoch = controlEpoch;
  }

  Optional<Status> get(String project, String name) {
    return metadata.get(ControlKeys.status(project, name)).map(StatusStore::decode);
  }

  /**
   * Writes the job's status, stamped with the leader's epoch, unless a newer leader stamped it.
   *
   * @throws FencedException if the stored status carries a newer epoch
   * @throws io.tributary.scheduler.metadata.LeaseLostException if this process does not lead
   */
  void put(String project, String name, Status status) {
    String key = ControlKeys.status(project, name);
    long epoch = controlEpoch.getAsLong();
    Optional<Item> current = metadata.get(key);
    if (current.isPresent()) {
      long stamped = JobStore.readJson(current.get()).path("controlEpoch").asLong(0);
      if (stamped > epoch) {
        throw new FencedException(key, epoch, stamped);
      }
    }
    metadata.put(key, encode(status, epoch), current.map(Item::version).orElse(0L));
  }

  void delete(String project, String name) {
    String key = ControlKeys.status(project, name);
    metadata.get(key).ifPresent(i -> metadata.delete(key, i.version()));
  }

  private static byte[] encode(Status s, long epoch) {
    ObjectNode n = JSON.createObjectNode().put("observed", s.observed().name()).put("controlEpoch", epoch)
        .put("recovery", RestorePolicies.format(s.recovery())).put("restarts", s.restarts());
    if (s.failure() != null) {
      n.putObject("failure").put("domain", s.failure().domain().name()).put("retryable", s.failure().retryable())
          .put("message", s.failure().message());
    }
    if (!s.tasks().isEmpty()) {
      ArrayNode tasks = n.putArray("tasks");
      s.tasks().forEach(t -> tasks.addObject().put("stage", t.stageId()).put("subtask", t.subtask())
          .put("name", t.stage()).put("worker", t.worker()));
    }
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static Status decode(Item item) {
    JsonNode n = JobStore.readJson(item);
    JsonNode f = n.get("failure");
    JobFailure failure = f == null || f.isNull() ? null
        : new JobFailure(Failure.Domain.valueOf(f.path("domain").asText()), f.path("retryable").asBoolean(),
            f.path("message").asText());
    List<TaskPlacement> tasks = new ArrayList<>();
    for (JsonNode t : n.path("tasks")) {
      tasks.add(new TaskPlacement(t.path("stage").asInt(), t.path("subtask").asInt(), t.path("name").asText(),
          t.path("worker").asText()));
    }
    return new Status(ObservedState.valueOf(n.path("observed").asText()), failure,
        RestorePolicies.parse(n.path("recovery").asText("latest")), n.path("restarts").asLong(0), tasks);
  }
}
