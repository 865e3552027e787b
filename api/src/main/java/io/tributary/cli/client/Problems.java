package io.tributary.cli.client;

import static io.tributary.protocol.Causes.causedBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.client.ApiClient;
import io.tributary.client.ApiException;
import io.tributary.client.model.FieldError;
import io.tributary.client.model.Problem;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns a failed call into one line for the user and an exit code ({@link ExitCodes}). The server
 * answers errors with {@code application/problem+json}; its {@code detail} is the line, followed
 * by every field error as {@code pointer: message} when it lists them (a single field error alone:
 * the detail is that error); errors in a SQL job's text
 * are each {@code line L, column C: message}.
 */
final class Problems {
  private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();

  private Problems() {}

  /**
   * The failure for {@code e}, a call to {@code server}.
   *
   * @param pointerPrefix removed from the start of field pointers, so that they point into the
   *     user's file: {@code "/spec"} when the file was sent as the body's {@code spec}, else {@code ""}
   * @param tokenGiven whether the call carried a token, to hint at one on a 401 without it
   */
  static CliFailure describe(ApiException e, String server, String pointerPrefix, boolean tokenGiven) {
    return describe(e, server, pointerPrefix, tokenGiven, null);
  }

  /**
   * As {@link #describe(ApiException, String, String, boolean)}, errors in a SQL job's text led by the
   * name of the user's {@code file} (null: none), as when they are found offline.
   */
  static CliFailure describe(ApiException e, String server, String pointerPrefix, boolean tokenGiven, String file) {
    if (e.getCode() == 0 && e.getCause() instanceof com.fasterxml.jackson.core.JsonProcessingException bad) {
      return new CliFailure(ExitCodes.OTHER, "cannot read the answer of the server at " + server + ": "
          + oneLine(bad.getOriginalMessage()));
    }
    if (e.getCode() == 0) {
      return unreachable(e, server);
    }
    Problem problem = parse(e.getResponseBody());
    String detail = problem == null ? null : firstNonBlank(problem.getDetail(), problem.getTitle());
    if (detail == null) {
      detail = "the server answered HTTP " + e.getCode();
    }
    List<FieldError> errors = problem == null ? null : problem.getErrors();
    if (errors != null && !errors.isEmpty() && errors.stream().allMatch(f -> f.getLine() != null)) {
      return new CliFailure(ExitCodes.forStatus(e.getCode()), oneLine((file == null ? "" : file + ": ")
          + errors.stream().map(f -> "line " + f.getLine() + ", column " + f.getColumn() + ": " + f.getMessage())
          .collect(Collectors.joining("; "))));
    }
    StringBuilder line = new StringBuilder();
    if (errors != null && !errors.isEmpty()) {
      // the detail of a single field error is that error: say it once, its pointer into the file
      FieldError first = errors.get(0);
      if (errors.size() > 1 || !isThe(first, detail)) {
        line.append(detail).append(": ");
      }
      line.append(errors.stream()
          .map(f -> pointer(f.getPointer(), pointerPrefix) + ": " + f.getMessage())
          .collect(Collectors.joining("; ")));
    } else {
      line.append(detail);
    }
    if (e.getCode() == 401 && !tokenGiven) {
      line.append(" (set TRIBUTARY_TOKEN or pass --token)");
    }
    return new CliFailure(ExitCodes.forStatus(e.getCode()), oneLine(line.toString()));
  }

  /** Whether {@code detail} is {@code error}, its pointer with or without the leading slash. */
  private static boolean isThe(FieldError error, String detail) {
    String p = error.getPointer() == null ? "" : error.getPointer();
    String said = ": " + error.getMessage();
    return detail.equals(p + said) || p.startsWith("/") && detail.equals(p.substring(1) + said);
  }

  static String pointer(String pointer, String prefix) {
    if (pointer == null) {
      return "/";
    }
    if (!prefix.isEmpty() && (pointer.equals(prefix) || pointer.startsWith(prefix + "/"))) {
      String rest = pointer.substring(prefix.length());
      return rest.isEmpty() ? "/" : rest;
    }
    return pointer.isEmpty() ? "/" : pointer;
  }

  private static CliFailure unreachable(ApiException e, String server) {
    Throwable cause = e.getCause();
    String why;
    if (cause instanceof InterruptedException) {
      why = "interrupted";
    } else if (causedBy(cause, HttpTimeoutException.class)) {
      why = "no answer in time";
    } else if (causedBy(cause, UnresolvedAddressException.class) || causedBy(cause, java.net.UnknownHostException.class)) {
      why = "unknown host";
    } else if (causedBy(cause, ConnectException.class)) {
      why = "connection refused";
    } else {
      why = cause == null ? String.valueOf(e.getMessage()) : describe(cause);
    }
    return new CliFailure(ExitCodes.OTHER, "cannot reach the server at " + server + ": " + why);
  }

  private static String describe(Throwable t) {
    String msg = t.getMessage();
    return msg == null || msg.isBlank() ? t.getClass().getSimpleName() : oneLine(msg);
  }

  private static Problem parse(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return JSON.readValue(body, Problem.class);
    } catch (Exception notAProblem) {
      return null;
    }
  }

  private static String firstNonBlank(String a, String b) {
    return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
