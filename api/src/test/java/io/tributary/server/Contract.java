package io.tributary.server;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolverFactory;
import com.atlassian.oai.validator.report.ValidationReport;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The OpenAPI contract check: every response a server IT sees through {@link ServerTests} (raw
 * requests and the generated client alike) is validated against {@code openapi/tributary.yaml} —
 * its status code must be one the operation declares, its body must match that response's schema
 * and media type. A violation fails the request that saw it, so the test that sent it fails.
 * The console's static files and the server-sent event stream are outside the contract's schemas.
 */
final class Contract {
  private static final OpenApiInteractionValidator VALIDATOR = OpenApiInteractionValidator
      .createForSpecificationUrl(spec().toUri().toString())
      // the schemas compose with allOf, which this validator cannot check for unknown properties
      // (it would refuse every composed body); every declared property is still checked
      .withLevelResolver(LevelResolverFactory.withAdditionalPropertiesIgnored())
      .build();
  private static final List<String> CHECKED = new ArrayList<>();

  private Contract() {}

  private static Path spec() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path f = p.resolve("openapi/tributary.yaml");
      if (Files.exists(f)) {
        return f;
      }
    }
    throw new IllegalStateException("openapi/tributary.yaml not found above " + Path.of("").toAbsolutePath());
  }

  /**
   * Validates one response.
   *
   * @throws AssertionError naming every way it breaks the contract
   */
  static void check(String method, URI uri, int status, String contentType, String body) {
    String path = uri.getPath();
    if (!(path.startsWith("/v1/") || path.equals("/v1") || path.equals("/health") || path.equals("/metrics"))
        || path.endsWith("/output") || (contentType != null && contentType.startsWith("text/event-stream"))) {
      return;
    }
    SimpleResponse.Builder r = SimpleResponse.Builder.status(status);
    if (contentType != null) {
      r.withContentType(contentType);
    }
    if (body != null && !body.isEmpty()) {
      r.withBody(body);
    }
    ValidationReport report = VALIDATOR.validateResponse(path, Request.Method.valueOf(method.toUpperCase(Locale.ROOT)),
        r.build());
    synchronized (CHECKED) {
      CHECKED.add(method + " " + path + " " + status);
    }
    if ((status == 404 || status == 405) && report.getMessages().stream()
        .allMatch(m -> m.getKey().equals("validation.request.path.missing"))) {
      return; // a route the contract does not have: answered with its problem, nothing to check it against
    }
    if (report.hasErrors()) {
      StringBuilder why = new StringBuilder("response breaks openapi/tributary.yaml: " + method + " " + path + " -> "
          + status + "\n");
      for (ValidationReport.Message m : report.getMessages()) {
        if (m.getLevel() == ValidationReport.Level.ERROR) {
          why.append("  ").append(m.getKey()).append(": ").append(m.getMessage()).append('\n');
        }
      }
      why.append("  body: ").append(body == null ? "" : body.length() > 2000 ? body.substring(0, 2000) + "..." : body);
      throw new AssertionError(why.toString());
    }
  }

  /** How many responses were checked so far (for tests that the check runs at all). */
  static int checked() {
    synchronized (CHECKED) {
      return CHECKED.size();
    }
  }
}
