package io.tributary.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.observe.OutputListener;
import io.tributary.scheduler.observe.OutputRecord;
import io.tributary.scheduler.observe.OutputSubscription;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import java.time.Duration;
import java.util.List;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.Disposable;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Schedulers;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET .../jobs/{name}/output}: the records the job's sinks produce, as server-sent events
 * (the contract documents the route; a stream has no generated interface). The subscription to
 * the control plane's output sample lives as long as the client stays connected. A heartbeat goes
 * out at once (so the client sees the stream open) and then every {@link #HEARTBEAT}.
 */
@Controller
class OutputController {
  static final Duration HEARTBEAT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final JobManager jobs;
  private final Access access;

  OutputController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Get("/v1/projects/{project}/jobs/{name}/output")
  @Produces(MediaType.TEXT_EVENT_STREAM)
  @Secured(SecurityRule.IS_AUTHENTICATED)
  Publisher<Event<String>> output(@PathVariable String project, @PathVariable String name,
      @Nullable @QueryValue String operator) {
    access.require(project, Role.VIEWER);
    // refused here, before the stream's 200 goes out: 404 for no such job, 400 for no such operator
    jobs.checkOutput(project, name, operator);
    return Flux.create(sink -> {
      OutputSubscription subscription;
      try {
        subscription = jobs.subscribeOutput(project, name, operator, new Listener(sink));
      } catch (RuntimeException e) {
        // deleted (or changed) since the check: the stream has begun, so it ends
        sink.complete();
        return;
      }
      Disposable heartbeat = Schedulers.parallel().schedulePeriodically(
          () -> sink.next(Event.of("{}").name("heartbeat")), 0, HEARTBEAT.toMillis(),
          TimeUnit.MILLISECONDS);
      sink.onDispose(() -> {
        heartbeat.dispose();
        subscription.close();
      });
    }, FluxSink.OverflowStrategy.LATEST);
  }

  private static final class Listener implements OutputListener {
    private final FluxSink<Event<String>> sink;

    Listener(FluxSink<Event<String>> sink) {
      this.sink = sink;
    }

    @Override
    public void records(List<OutputRecord> records) {
      for (OutputRecord r : records) {
        ObjectNode n = JSON.createObjectNode().put("operatorId", r.operatorId()).put("subtask", r.subtask())
            .put("at", r.emittedAt().toString());
        if (r.eventTime() != null) {
          n.put("eventTime", r.eventTime().toString());
        }
        n.set("value", JSON.valueToTree(r.fields()));
        try {
          sink.next(Event.of(JSON.writeValueAsString(n)).name("record"));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException(e);
        }
      }
    }

    @Override
    public void ended(String reason) {
      sink.complete();
    }
  }
}
