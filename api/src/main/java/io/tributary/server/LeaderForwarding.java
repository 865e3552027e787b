package io.tributary.server;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.client.ProxyHttpClient;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.micronaut.http.filter.ServerFilterPhase;
import io.tributary.api.generated.model.ErrorDomain;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.Leadership;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * On a follower replica, sends what only the leader can do to the leader, with the caller's
 * credentials: every change to jobs (apply, stop, resume, rescale, restart, savepoints, deletes,
 * and deleting a project with its jobs), and the reads of what only the running jobs know (their
 * metrics and live output). Everything else — job records, statuses, checkpoints, events, projects
 * and tokens — any replica answers from the shared metadata store. Without a leader (while one
 * takes over), applies, stops without a savepoint, resumes and rescales are written to the store as
 * the job's desired state, which the next leader carries out; the other requests (restarts and
 * savepoints, which act on a running job) get 503 with {@code Retry-After}.
 */
@Filter("/v1/**")
final class LeaderForwarding implements HttpServerFilter {
  /** Marks a request one replica forwarded to another, which must not forward it again. */
  static final String FORWARDED = "X-Tributary-Forwarded-By";
  private static final Pattern JOB_PATH = Pattern.compile("^/v1/projects/[^/]+/jobs(/.*)?$");
  private static final Pattern LIVE_READ = Pattern.compile("^/v1/projects/[^/]+/jobs/[^/]+/(metrics|output)$");
  private static final Pattern PROJECT = Pattern.compile("^/v1/projects/[^/]+$");
  /** What a replica that does not lead stores as the job's desired state while no replica leads. */
  private static final Pattern DESIRED_STATE = Pattern.compile(
      "^(PUT /v1/projects/[^/]+/jobs/[^/]+|POST /v1/projects/[^/]+/jobs/[^/]+/(stop|resume|rescale))$");
  private static final String RETRY_SECONDS = "2";

  private final Leadership leadership;
  private final ProxyHttpClient client;

  LeaderForwarding(JobManager jobs, ProxyHttpClient client) {
    this.leadership = jobs.leadership();
    this.client = client;
  }

  @Override
  public int getOrder() {
    return ServerFilterPhase.SECURITY.after();
  }

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(HttpRequest<?> request, ServerFilterChain chain) {
    if (leadership.leading() || !leaderOnly(request.getMethod(), request.getPath())) {
      return chain.proceed(request);
    }
    if (request.getHeaders().contains(FORWARDED)) {
      return Publishers.just(unavailable(request, "the replica this request was forwarded to does not lead (any "
          + "more)"));
    }
    Optional<String> leader = leadership.leaderUrl();
    if (leader.isEmpty()) {
      if (DESIRED_STATE.matcher(request.getMethodName() + " " + request.getPath()).matches()) {
        return chain.proceed(request); // stored as the desired state here; the next leader carries it out
      }
      return Publishers.just(unavailable(request, "no control-plane replica leads at the moment (one is taking "
          + "over)"));
    }
    URI target = URI.create(leader.get());
    return Flux.from(client.proxy(request.mutate()
            .uri(b -> b.scheme(target.getScheme()).host(target.getHost()).port(target.getPort()))
            .header(FORWARDED, "follower")))
        .onErrorResume(e -> Flux.just(unavailable(request, "the leader at " + target + " did not answer ("
            + firstLine(e) + ")")));
  }

  /** Whether only the leader can answer a request of {@code method} on {@code path}. */
  static boolean leaderOnly(HttpMethod method, String path) {
    boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS;
    if (read) {
      return LIVE_READ.matcher(path).matches();
    }
    return JOB_PATH.matcher(path).matches()
        || method == HttpMethod.DELETE && PROJECT.matcher(path).matches();
  }

  private static MutableHttpResponse<?> unavailable(HttpRequest<?> request, String why) {
    return Problems.response(request, 503, why + "; only the leader acts on jobs: retry in a few seconds",
        ErrorDomain.INTERNAL, true, null).header("Retry-After", RETRY_SECONDS);
  }

  /** One line of an error, without exception class names. */
  private static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? "no answer" : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }
}
