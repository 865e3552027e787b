package io.tributary.server;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.security.authentication.AuthorizationException;
import io.micronaut.security.authentication.DefaultAuthorizationExceptionHandler;
import io.micronaut.validation.exceptions.ConstraintExceptionHandler;
import io.tributary.protocol.Causes;
import io.tributary.api.generated.model.ErrorDomain;
import io.tributary.api.generated.model.FieldError;
import io.tributary.api.generated.model.Problem;
import io.tributary.scheduler.lifecycle.ControlException;
import io.tributary.scheduler.lifecycle.InvalidRequestException;
import io.tributary.scheduler.lifecycle.NotFoundException;
import io.tributary.scheduler.lifecycle.OperationFailedException;
import io.tributary.scheduler.lifecycle.PreconditionFailedException;
import io.tributary.scheduler.lifecycle.QuotaExceededException;
import io.tributary.api.generated.model.QuotaViolation;
import io.tributary.scheduler.lifecycle.StateConflictException;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.SpecError;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every error leaves the server as {@code application/problem+json} (RFC 7807) with a type URN,
 * a title, the detail and, for invalid input, the JSON pointer of each offending field. Errors of
 * Tributary's own ({@link ControlException}, {@link InvalidSpecException}) map to a status here, in
 * one place; the framework's (unknown route, malformed JSON, oversized body, failed validation,
 * missing token) pass through {@link Processor}. No stack trace or exception class name ever
 * reaches a client: an unexpected error is logged with an id that its problem's detail names.
 */
final class Problems {
  static final String MEDIA_TYPE = "application/problem+json";
  private static final Logger LOG = LoggerFactory.getLogger(Problems.class);

  private Problems() {}

  static MutableHttpResponse<Problem> response(HttpRequest<?> request, int status, String detail,
      ErrorDomain domain, boolean retryable, List<FieldError> errors) {
    Problem p = new Problem("urn:tributary:problem:" + kind(status, errors), title(status, errors), status)
        .detail(detail).domain(domain).retryable(retryable);
    if (request != null) {
      p.instance(request.getPath());
    }
    if (errors != null && !errors.isEmpty()) {
      p.errors(errors);
    }
    MutableHttpResponse<Problem> r = HttpResponse.<Problem>status(HttpStatus.valueOf(status)).body(p);
    r.contentType(MEDIA_TYPE);
    if (status == 401) {
      r.header("WWW-Authenticate", "Bearer realm=\"tributary\"");
    }
    return r;
  }

  static MutableHttpResponse<Problem> user(HttpRequest<?> request, int status, String detail, List<FieldError> errors) {
    return response(request, status, detail, ErrorDomain.USER, false, errors);
  }

  private static String kind(int status, List<FieldError> errors) {
    switch (status) {
      case 400:
        return errors != null && errors.stream().anyMatch(Problems::aboutTheJob)
            ? "invalid-spec" : errors != null && !errors.isEmpty() ? "invalid-request" : "malformed-request";
      case 401:
        return "unauthorized";
      case 403:
        return "forbidden";
      case 404:
        return "not-found";
      case 405:
        return "method-not-allowed";
      case 409:
        return "conflict";
      case 412:
        return "precondition-failed";
      case 413:
        return "payload-too-large";
      case 415:
        return "unsupported-media-type";
      case 429:
        return "quota-exceeded";
      default:
        return status >= 500 ? "internal" : "invalid-request";
    }
  }

  private static String title(int status, List<FieldError> errors) {
    if (status == 400 && errors != null && errors.stream().anyMatch(Problems::aboutTheJob)) {
      return "Invalid job spec";
    }
    if (status == 400 && errors != null && !errors.isEmpty()) {
      return "Invalid request";
    }
    HttpStatus s = HttpStatus.valueOf(status);
    return status == 400 ? "Malformed request" : s.getReason();
  }

  /** An unexpected error: logged with an id; the client sees the id only. */
  static MutableHttpResponse<Problem> internal(HttpRequest<?> request, Throwable error) {
    String id = Long.toHexString(System.nanoTime() ^ Thread.currentThread().getId() * 0x9E3779B97F4A7C15L);
    LOG.error("internal error {} on {} {}", id, request == null ? "" : request.getMethodName(),
        request == null ? "" : request.getPath(), error);
    return response(request, 500, "an internal error occurred (id " + id + "); the server log has the details",
        ErrorDomain.INTERNAL, true, null);
  }

  static MutableHttpResponse<Problem> of(HttpRequest<?> request, ControlException e) {
    int status;
    List<FieldError> errors = null;
    if (e instanceof InvalidRequestException invalid) {
      status = 400;
      errors = List.of(new FieldError("/" + invalid.field(), invalid.reason()));
    } else if (e instanceof NotFoundException) {
      status = 404;
    } else if (e instanceof StateConflictException) {
      status = 409;
    } else if (e instanceof PreconditionFailedException) {
      status = 412;
    } else if (e instanceof QuotaExceededException q) {
      status = q.status();
      if (q.field() != null) {
        errors = List.of(new FieldError(q.field(), e.getMessage()));
      }
      String detail = q.field() == null ? e.getMessage() : q.field() + ": " + e.getMessage();
      MutableHttpResponse<Problem> r = response(request, status, detail, ErrorDomain.USER, false, errors);
      r.body().quota(new QuotaViolation(q.quota(), q.limit()).requested(q.requested()));
      r.body().type("urn:tributary:problem:quota-exceeded").title("Quota exceeded");
      return r;
    } else if (e instanceof OperationFailedException) {
      status = e.retryable() ? 503 : 500;
      if (e.getCause() != null) {
        LOG.warn("{} {}: {}", request.getMethodName(), request.getPath(), e.getMessage(), e.getCause());
      }
    } else {
      return internal(request, e);
    }
    return response(request, status, e.getMessage(), ErrorDomain.fromValue(e.domain().name()), e.retryable(), errors);
  }

  /** Whether an error is about the job's spec or SQL text (an invalid spec) rather than the request. */
  private static boolean aboutTheJob(FieldError e) {
    return e.getPointer().startsWith("/spec") || e.getPointer().startsWith("/sql");
  }

  /**
   * The problem of an invalid spec: one error per field, its pointer under {@code pointerPrefix};
   * an error in SQL text points at {@code /sql} with its line and column.
   */
  static MutableHttpResponse<Problem> of(HttpRequest<?> request, InvalidSpecException e, String pointerPrefix) {
    List<FieldError> errors = new ArrayList<>();
    for (SpecError err : e.errors()) {
      if (err.positioned()) {
        errors.add(new FieldError("/sql", err.message()).line(err.line()).column(err.column()));
      } else {
        errors.add(new FieldError(pointerPrefix + err.pointer(), err.message()));
      }
    }
    String detail = errors.size() == 1 ? where(errors.get(0)) + ": " + errors.get(0).getMessage()
        : "the " + (errors.get(0).getLine() != null ? "SQL job" : "spec") + " has " + errors.size() + " errors";
    return user(request, 400, detail, errors);
  }

  private static String where(FieldError e) {
    return e.getLine() == null ? e.getPointer()
        : e.getPointer() + " (line " + e.getLine() + ", column " + e.getColumn() + ")";
  }

  /** Renders the framework's own errors (unknown route, bad JSON, oversized body...) as problems. */
  @Singleton
  @Replaces(ErrorResponseProcessor.class)
  static final class Processor implements ErrorResponseProcessor<Problem> {
    @Override
    public MutableHttpResponse<Problem> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
      int status = response.code();
      HttpRequest<?> request = context.getRequest();
      if (status >= 500) {
        return internal(request, context.getRootCause().orElse(null));
      }
      String detail = context.getRootCause().map(Problems::describe).orElse(null);
      List<FieldError> errors = null;
      String pointer = context.getRootCause().map(Problems::pointer).orElse(null);
      if (pointer != null && detail != null) {
        errors = List.of(new FieldError(pointer, detail));
      }
      if (detail == null && context.hasErrors() && status != 404) {
        detail = clean(context.getErrors().get(0).getMessage());
      }
      if (status == 404 && detail == null) {
        detail = "no resource at " + request.getPath();
      } else if (status == 405) {
        detail = request.getMethodName() + " is not allowed on " + request.getPath();
      } else if (status == 413) {
        detail = "the request body is larger than the server accepts (1 MiB)";
      } else if (status == 415) {
        detail = "the request body must be application/json";
      }
      if (detail == null) {
        detail = HttpStatus.valueOf(status).getReason();
      }
      MutableHttpResponse<Problem> r = user(request, status, detail, errors);
      response.getHeaders().forEach((name, values) -> {
        if (name.equalsIgnoreCase("Allow")) {
          values.forEach(v -> r.header(name, v));
        }
      });
      return r;
    }
  }

  /** The pattern of project and job names in the API's description. */
  private static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$";
  private static final Pattern UNKNOWN_PROPERTY = Pattern.compile("Unknown property \\[([^\\]]+)\\]");
  private static final Pattern UNKNOWN_IN = Pattern.compile("deserialization of type:? \\[?(?:class )?(?:[\\w.]*\\.)?([A-Za-z0-9_]+)");
  private static final Pattern FAILED_ARGUMENT = Pattern.compile(
      "Failed to convert argument \\[([^\\]]+)\\] for value \\[[^\\]]*\\](?: due to: )?(.*)", Pattern.DOTALL);

  private static final Pattern DECODING_PROPERTY = Pattern.compile(
      "decoding property \\[(?:[^\\]]* )?([A-Za-z0-9_]+)\\] of type \\[(?:class )?(?:[\\w.]*\\.)?([A-Za-z0-9_]+)\\]");
  /** The bodies of requests: their fields are at the top of the body. */
  private static final java.util.Set<String> BODIES = java.util.Set.of("JobApply", "PlanRequest", "StopRequest",
      "RescaleRequest", "ProjectCreate", "ApiTokenCreate");

  /**
   * The JSON pointer of the body field a deserialization error concerns, or null. The deserializer
   * names the property and the type that holds it; a type other than the body itself is the body's
   * field of that name ({@code RestorePolicy} in an apply is {@code /restorePolicy}).
   */
  static String pointer(Throwable t) {
    String pointer = null;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      Matcher m = DECODING_PROPERTY.matcher(String.valueOf(c.getMessage()));
      if (m.find()) {
        String holder = m.group(2);
        pointer = (BODIES.contains(holder) ? "" : "/" + Character.toLowerCase(holder.charAt(0)) + holder.substring(1))
            + "/" + m.group(1);
      }
    }
    String root = String.valueOf(Causes.root(t).getMessage());
    Matcher u = UNKNOWN_PROPERTY.matcher(root);
    if (u.find() && pointer == null) {
      Matcher in = UNKNOWN_IN.matcher(root);
      String holder = in.find() ? in.group(1) : null;
      pointer = (holder == null || BODIES.contains(holder) ? ""
          : "/" + Character.toLowerCase(holder.charAt(0)) + holder.substring(1)) + "/" + u.group(1);
    }
    return pointer;
  }

  /** A framework exception as one line fit for a user, or null to use the framework's message. */
  static String describe(Throwable t) {
    Throwable cause = Causes.root(t);
    LOG.debug("request error", t);
    if (t instanceof ConversionErrorException) {
      ConversionErrorException c = (ConversionErrorException) t;
      String arg = c.getArgument().getName();
      String why = clean(cause.getMessage());
      String at = pointer(t);
      if (at != null && !why.startsWith("unknown field")) {
        why = at.substring(1) + ": " + why;
      }
      return "body".equals(arg) || arg.endsWith("Request") || arg.equals("jobApply") || arg.equals("planRequest")
          || arg.equals("restorePolicy") || arg.equals("projectCreate") || arg.equals("apiTokenCreate")
          ? "the request body is not valid: " + why : "parameter '" + arg + "' is not valid: " + why;
    }
    if (cause instanceof com.fasterxml.jackson.core.JsonProcessingException) {
      return "malformed JSON: " + clean(((com.fasterxml.jackson.core.JsonProcessingException) cause).getOriginalMessage());
    }
    return null;
  }

  /** Drops Java types and framework phrasing from a framework message. */
  static String clean(String message) {
    if (message == null) {
      return "invalid value";
    }
    String m = message;
    Matcher f = FAILED_ARGUMENT.matcher(m);
    if (f.matches() && !f.group(2).isBlank()) {
      m = f.group(2);
    }
    Matcher u = UNKNOWN_PROPERTY.matcher(m);
    if (u.find()) {
      return "unknown field '" + u.group(1) + "'";
    }
    m = m.replaceAll("\\b(?:[a-z]+\\.)+([A-Z][A-Za-z0-9]*)(?:\\$[A-Za-z0-9]+)*", "$1");
    int nl = m.indexOf('\n');
    if (nl >= 0) {
      m = m.substring(0, nl);
    }
    // Jackson's location: the line and column say where, the source description is noise
    m = m.replaceAll(" at \\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", " at line $1, column $2");
    m = m.replaceAll(" at \\[Source: .*", "").trim();
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }

  /** Control-plane errors: 400, 404, 409, 412, 500 or 503 (see {@link ControlException}). */
  @Singleton
  static final class ControlErrors implements ExceptionHandler<ControlException, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, ControlException e) {
      return of(request, e);
    }
  }

  /** An invalid spec: 400 with a pointer into the request body for every error. */
  @Singleton
  static final class SpecErrors implements ExceptionHandler<InvalidSpecException, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, InvalidSpecException e) {
      return of(request, e, "/spec");
    }
  }

  /** Path, query and body constraints of the contract (names, page sizes, parallelism bounds). */
  @Singleton
  @Replaces(ConstraintExceptionHandler.class)
  static final class ConstraintErrors implements ExceptionHandler<ConstraintViolationException, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, ConstraintViolationException e) {
      List<FieldError> errors = new ArrayList<>();
      for (ConstraintViolation<?> v : e.getConstraintViolations()) {
        errors.add(new FieldError(pointer(v.getPropertyPath()), message(v)));
      }
      errors.sort(Comparator.comparing(FieldError::getPointer));
      FieldError first = errors.get(0);
      String detail = errors.size() == 1 ? first.getPointer() + ": " + first.getMessage()
          : errors.size() + " invalid fields, the first " + first.getPointer() + ": " + first.getMessage();
      return user(request, 400, detail, errors);
    }

    /** The violation's message; a name that is not a DNS label says what a name may hold, not the regex. */
    private static String message(ConstraintViolation<?> v) {
      if (v.getConstraintDescriptor() != null
          && v.getConstraintDescriptor().getAnnotation() instanceof jakarta.validation.constraints.Pattern p
          && p.regexp().equals(DNS_LABEL)) {
        return "'" + v.getInvalidValue() + "' is not a DNS label: use at most 63 lower-case letters, digits"
            + " and '-', starting and ending with a letter or digit";
      }
      return v.getMessage();
    }

    /** {@code applyJobApi.jobApply.spec.name} -> {@code /spec/name}; a parameter -> {@code /name}. */
    private static String pointer(Path path) {
      List<String> parts = new ArrayList<>();
      for (Path.Node n : path) {
        if (n.getIndex() != null && !parts.isEmpty()) {
          parts.add(String.valueOf(n.getIndex()));
        }
        if (n.getName() != null && n.getKind() != jakarta.validation.ElementKind.CONTAINER_ELEMENT) {
          parts.add(n.getName());
        }
      }
      // method, then its parameter: a body's fields point into the body, a parameter is itself
      List<String> rest = parts.size() > 2 ? parts.subList(2, parts.size()) : parts.subList(Math.min(1, parts.size()), parts.size());
      return "/" + String.join("/", rest).replace("~", "~0");
    }
  }

  /** No token, an invalid one (401), or one without the right (403). */
  @Singleton
  @Replaces(DefaultAuthorizationExceptionHandler.class)
  static final class AuthorizationErrors implements ExceptionHandler<AuthorizationException, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, AuthorizationException e) {
      if (e.isForbidden()) {
        return user(request, 403, "this token may not do that", null);
      }
      boolean presented = request.getHeaders().getAuthorization().isPresent();
      return user(request, 401, presented ? "the bearer token is not valid (unknown, revoked or expired)"
          : "this request needs an Authorization: Bearer <token> header", null);
    }
  }

  /** Anything else: 500, logged, and never its message. */
  @Singleton
  static final class Unexpected implements ExceptionHandler<RuntimeException, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, RuntimeException e) {
      return internal(request, e);
    }
  }
}
