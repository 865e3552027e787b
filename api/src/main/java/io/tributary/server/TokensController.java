package io.tributary.server;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.context.ServerRequestContext;
import io.tributary.api.generated.AbstractTokensController;
import io.tributary.api.generated.model.ApiToken;
import io.tributary.api.generated.model.ApiTokenCreate;
import io.tributary.api.generated.model.ApiTokenCreated;
import io.tributary.api.generated.model.ApiTokenList;
import io.tributary.api.generated.model.TokenRole;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.TokenStore;
import io.tributary.scheduler.lifecycle.TokenStore.Role;
import reactor.core.publisher.Mono;

/** A project's API tokens: created (the secret shown once), listed without secrets, revoked. */
@Controller
class TokensController extends AbstractTokensController {
  private final JobManager jobs;
  private final Access access;

  TokensController(JobManager jobs, Access access) {
    this.jobs = jobs;
    this.access = access;
  }

  @Override
  public Mono<ApiTokenCreated> createApiToken(String project, ApiTokenCreate body) {
    access.require(project, Role.ADMIN);
    HttpRequest<?> request = ServerRequestContext.currentRequest().orElse(null);
    return Blocking.call(() -> {
      TokenStore.Created c = jobs.tokens().create(project, body.getName(), Role.parse(body.getRole().getValue()),
          body.getExpiresAt() == null ? null : body.getExpiresAt().toInstant());
      TokenStore.Token t = c.token();
      if (request != null) {
        request.setAttribute(JobsController.CREATED, Boolean.TRUE);
      }
      ApiTokenCreated out = new ApiTokenCreated(t.id(), t.name(), TokenRole.fromValue(t.role().apiName()), t.prefix(),
          ApiModels.time(t.createdAt()), c.secret());
      if (t.expiresAt() != null) {
        out.expiresAt(ApiModels.time(t.expiresAt()));
      }
      return out;
    });
  }

  @Override
  public Mono<ApiTokenList> listApiTokens(String project, Integer pageSize, String pageToken) {
    access.require(project, Role.ADMIN);
    int size = Pages.size(pageSize);
    return Blocking.call(() -> {
      TokenStore.TokenPage page = jobs.tokens().list(project, pageToken, size);
      ApiTokenList list = new ApiTokenList(page.tokens().stream().map(TokensController::token).toList());
      if (page.nextPageToken() != null) {
        list.nextPageToken(page.nextPageToken());
      }
      return list;
    });
  }

  @Override
  public Mono<Void> revokeApiToken(String project, String tokenId) {
    access.require(project, Role.ADMIN);
    return Blocking.run(() -> jobs.tokens().revoke(project, tokenId));
  }

  private static ApiToken token(TokenStore.Token t) {
    ApiToken out = new ApiToken(t.id(), t.name(), TokenRole.fromValue(t.role().apiName()), t.prefix(),
        ApiModels.time(t.createdAt()));
    if (t.expiresAt() != null) {
      out.expiresAt(ApiModels.time(t.expiresAt()));
    }
    return out;
  }
}
