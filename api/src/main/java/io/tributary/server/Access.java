package io.tributary.server;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.context.ServerRequestContext;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.authentication.AuthorizationException;
import io.micronaut.security.token.validator.TokenValidator;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.lifecycle.TokenStore;
import io.tributary.scheduler.lifecycle.TokenStore.Principal;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * Who may do what. A request authenticates with {@code Authorization: Bearer <token>}: a token of a
 * project acts on that project only, within its role; the administrator token acts on every
 * project. Controllers ask {@link #require} before they touch anything, so a token of project A
 * learns nothing about project B: not even whether a job of that name exists there.
 */
@Singleton
final class Access {
  static final String PRINCIPAL = "tributary.principal";

  private final TokenStore tokens;

  Access(JobManager jobs) {
    this.tokens = jobs.tokens();
  }

  /** The caller, who must be allowed {@code role} on {@code project}; else 403. */
  Principal require(String project, Role role) {
    Principal p = principal();
    if (!p.may(project, role)) {
      throw new AuthorizationException(authentication());
    }
    return p;
  }

  /** The caller, who must hold the administrator token or the metrics token; else 403. */
  Principal requireMetricsReader() {
    Principal p = principal();
    if (!p.administrator() && !METRICS.equals(p)) {
      throw new AuthorizationException(authentication());
    }
    return p;
  }

  /** The principal of the metrics token: no project, no role in any. */
  static final Principal METRICS = new Principal("metrics", "", Role.VIEWER);

  /** The caller, who must hold the administrator token; else 403. */
  Principal requireAdministrator() {
    Principal p = principal();
    if (!p.administrator()) {
      throw new AuthorizationException(authentication());
    }
    return p;
  }

  Principal principal() {
    Authentication a = authentication();
    Object p = a == null ? null : a.getAttributes().get(PRINCIPAL);
    if (!(p instanceof Principal)) {
      throw new AuthorizationException(null);
    }
    return (Principal) p;
  }

  private static Authentication authentication() {
    Optional<HttpRequest<Object>> request = ServerRequestContext.currentRequest();
    return request.flatMap(r -> r.getUserPrincipal(Authentication.class)).orElse(null);
  }

  /** Checks a bearer token against the token store. */
  @Singleton
  static final class Tokens implements TokenValidator<HttpRequest<?>> {
    private final TokenStore tokens;
    private final MetricsAccess metrics;

    Tokens(JobManager jobs, MetricsAccess metrics) {
      this.tokens = jobs.tokens();
      this.metrics = metrics;
    }

    @Override
    public Publisher<Authentication> validateToken(String token, HttpRequest<?> request) {
      if (metrics.isMetricsToken(token)) {
        return Flux.just(Authentication.build("metrics", List.of("metrics"), Map.of(PRINCIPAL, METRICS)));
      }
      return Flux.fromIterable(tokens.authenticate(token)
          .map(p -> Authentication.build(p.tokenId(), List.of(p.role().apiName()), Map.of(PRINCIPAL, p))).stream()
          .toList());
    }
  }

  /** Thrown where a project's existence must not leak: 404 only to those who may see the project. */
  static NotFoundException noProject(String project) {
    return new NotFoundException("project '" + project + "' does not exist");
  }
}
