package io.tributary.worker.remote;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.protocol.ControlMessage;
import io.tributary.protocol.Failure;
import io.tributary.protocol.RunningAttempt;
import io.tributary.protocol.WorkerReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The messages of a worker's control stream.
 *
 * <pre>
 *   worker                         control plane
 *   Hello(worker, pid)      --->
 *                           <---   Challenge(nonce)
 *   Register(proof, slots,  --->
 *     data address, running
 *     attempts)             <---   Registered(storage, intervals, access) | Refused(reason), closed
 *                           <---   Request(Release) for each running attempt it will not take over
 *   Heartbeat               --->   (every interval)
 *   Report(WorkerReport)    --->
 *                           <---   Request(id, ControlMessage)
 *   Reply(id, failure?)     --->
 * </pre>
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Envelope.Hello.class, name = "hello"),
    @JsonSubTypes.Type(value = Envelope.Challenge.class, name = "challenge"),
    @JsonSubTypes.Type(value = Envelope.Register.class, name = "register"),
    @JsonSubTypes.Type(value = Envelope.Registered.class, name = "registered"),
    @JsonSubTypes.Type(value = Envelope.Refused.class, name = "refused"),
    @JsonSubTypes.Type(value = Envelope.Heartbeat.class, name = "heartbeat"),
    @JsonSubTypes.Type(value = Envelope.Report.class, name = "report"),
    @JsonSubTypes.Type(value = Envelope.Request.class, name = "request"),
    @JsonSubTypes.Type(value = Envelope.Reply.class, name = "reply")})
sealed interface Envelope {
  /** A worker introduces itself. */
  record Hello(String worker, long pid) implements Envelope {}

  /** The control plane asks the worker to prove it knows the cluster secret. */
  record Challenge(String nonce) implements Envelope {}

  /**
   * The worker's answer: {@code proof} is the HMAC of the nonce and its id under the cluster secret.
   *
   * @param slots tasks it runs at once
   * @param dataAddress {@code host:port} of its data port
   * @param running the attempts it still runs that an earlier control plane deployed (it kept them
   *     running when its control stream ended): this one may take them over, else tells it to release
   *     them; after {@link Registered} the worker reports again their tasks' ends and final states
   */
  record Register(String worker, String proof, int slots, String dataAddress, long pid, List<RunningAttempt> running)
      implements Envelope {
    public Register {
      running = running == null ? List.of() : List.copyOf(running);
    }
  }

  /**
   * The worker belongs to the pool now.
   *
   * @param storage the object store of checkpoints and state files (a directory or {@code s3://...})
   * @param heartbeatMillis how often to heartbeat
   * @param metricsMillis how often to report the tasks' metrics
   * @param access what the worker's connectors may reach: the control plane's policy
   */
  record Registered(String storage, long heartbeatMillis, long metricsMillis, Access access) implements Envelope {}

  /**
   * A {@link ConnectorPolicy} on the wire.
   *
   * @param fileRoots the file roots; empty for unrestricted
   * @param endpoints the endpoint allow-list as written
   * @param refusedLoopbackPorts loopback ports refused whatever the list says (the server's own)
   */
  record Access(List<String> fileRoots, String endpoints, Set<Integer> refusedLoopbackPorts) {
    static Access of(ConnectorPolicy p) {
      return new Access(p.files().roots().stream().map(Path::toString).toList(),
          p.endpoints().toString(), p.endpoints().refusedLoopbackPorts());
    }

    ConnectorPolicy policy() {
      StorageRoots files = fileRoots == null || fileRoots.isEmpty()
          ? StorageRoots.unrestricted()
          : StorageRoots.of(fileRoots.stream().map(Path::of).toList());
      return new ConnectorPolicy(files, Endpoints.parse(endpoints)
          .exceptLoopbackPorts(refusedLoopbackPorts == null ? Set.of() : refusedLoopbackPorts));
    }
  }

  /** The worker may not join (then the stream ends). */
  record Refused(String reason) implements Envelope {}

  /** The worker is alive. */
  record Heartbeat() implements Envelope {}

  /** What the worker's tasks report. */
  record Report(WorkerReport report) implements Envelope {}

  /** Do {@code message}; answer with a {@link Reply} of the same id. */
  record Request(long id, ControlMessage message) implements Envelope {}

  /** Request {@code id} is done: {@code failure} says why not, or is null. */
  record Reply(long id, Failure failure) implements Envelope {}
}
