package io.tributary.server;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.HttpStatus;
import io.tributary.api.generated.model.Job;
import io.tributary.scheduler.lifecycle.InvalidRequestException;

/**
 * Response headers and statuses the generated interfaces cannot express: 201 for a create, 202 for
 * an action that goes on (stop, resume, rescale, a savepoint), 204 for a delete, and the ETag of a job. A job's version is its strong ETag ({@code "7"}). {@code If-Match} names the version a change
 * expects; {@code If-None-Match: *} expects no job at all (the control plane's expected version 0).
 */
@ServerFilter("/v1/**")
final class ETags {
  static Long expected(String ifMatch, String ifNoneMatch) {
    if (ifNoneMatch != null) {
      if (!ifNoneMatch.trim().equals("*")) {
        throw new InvalidRequestException("If-None-Match", "only * is supported (create only if absent)");
      }
      return 0L;
    }
    if (ifMatch == null) {
      return null;
    }
    String v = ifMatch.trim();
    if (v.startsWith("W/")) {
      throw new InvalidRequestException("If-Match", "must be a strong ETag such as \"7\"");
    }
    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      v = v.substring(1, v.length() - 1);
    }
    try {
      long version = Long.parseLong(v);
      if (version < 1) {
        throw new NumberFormatException();
      }
      return version;
    } catch (NumberFormatException e) {
      throw new InvalidRequestException("If-Match", "must be a job's ETag such as \"7\", not " + ifMatch);
    }
  }

  @ResponseFilter
  void etag(HttpRequest<?> request, MutableHttpResponse<?> response) {
    Object body = response.getBody().orElse(null);
    if (body instanceof Job) {
      response.header("ETag", "\"" + ((Job) body).getVersion() + "\"");
    }
    if (request.getMethod() == io.micronaut.http.HttpMethod.DELETE && response.code() == 200
        && response.getBody().isEmpty()) {
      response.status(HttpStatus.NO_CONTENT);
    }
    if (Boolean.TRUE.equals(request.getAttribute(JobsController.CREATED, Boolean.class).orElse(false))
        && response.code() == 200) {
      response.status(HttpStatus.CREATED);
    }
    if (Boolean.TRUE.equals(request.getAttribute(ACCEPTED, Boolean.class).orElse(false)) && response.code() == 200) {
      response.status(HttpStatus.ACCEPTED);
    }
  }

  /** Request attribute: the action was accepted and goes on (202 instead of 200), as the contract says. */
  static final String ACCEPTED = "tributary.accepted";

  /** Marks the current request's success as 202 Accepted. */
  static void accepted() {
    io.micronaut.http.context.ServerRequestContext.currentRequest().ifPresent(r -> r.setAttribute(ACCEPTED, Boolean.TRUE));
  }
}
