package io.tributary.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rules every operation of tributary.yaml keeps, checked on the YAML itself. */
class ContractTest {
  private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
  /** Paths without authentication: only the liveness check (metrics need the administrator or metrics token). */
  private static final Set<String> PUBLIC_PATHS = Set.of("/health");
  private static final String JOB = "/v1/projects/{project}/jobs/{name}";

  private static JsonNode api;
  private static List<Operation> operations;

  record Operation(String path, String method, JsonNode node) {
    @Override
    public String toString() {
      return method.toUpperCase() + " " + path;
    }
  }

  @BeforeAll
  static void read() throws IOException {
    api = new ObjectMapper(new YAMLFactory()).readTree(Path.of(System.getProperty("tributary.openapi.spec")).toFile());
    operations = new ArrayList<>();
    api.get("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
      if (METHODS.contains(op.getKey())) {
        operations.add(new Operation(path.getKey(), op.getKey(), op.getValue()));
      }
    }));
  }

  @Test
  void isOpenApi303WithEveryExpectedResource() {
    assertThat(api.path("openapi").asText()).isEqualTo("3.0.3");
    assertThat(operations).extracting(Operation::toString).contains(
        "GET /health", "GET /metrics", "GET /v1/projects", "POST /v1/projects/{project}/tokens",
        "DELETE /v1/projects/{project}/tokens/{tokenId}", "GET /v1/projects/{project}/jobs",
        "PUT " + JOB, "GET " + JOB, "DELETE " + JOB, "POST /v1/projects/{project}/plans",
        "POST " + JOB + "/stop", "POST " + JOB + "/resume", "POST " + JOB + "/rescale",
        "POST " + JOB + "/restart", "POST " + JOB + "/savepoints", "GET " + JOB + "/savepoints",
        "GET " + JOB + "/checkpoints", "GET " + JOB + "/events", "GET " + JOB + "/metrics");
  }

  @Test
  void everyOperationHasAUniqueOperationIdAndATag() {
    Set<String> ids = new HashSet<>();
    for (Operation op : operations) {
      String id = op.node().path("operationId").asText("");
      assertThat(id).as("operationId of %s", op).matches("[a-z][A-Za-z0-9]*");
      assertThat(ids.add(id)).as("operationId %s of %s is unique", id, op).isTrue();
      assertThat(op.node().path("tags")).as("tags of %s", op).isNotEmpty();
    }
  }

  @Test
  void everyOperationNeedsABearerTokenExceptHealth() {
    assertThat(api.at("/components/securitySchemes/bearerAuth/scheme").asText()).isEqualTo("bearer");
    for (Operation op : operations) {
      JsonNode security = op.node().has("security") ? op.node().get("security") : api.path("security");
      if (PUBLIC_PATHS.contains(op.path())) {
        assertThat(op.node().has("security")).as("%s declares its own security", op).isTrue();
        assertThat(security).as("security of %s", op).isEmpty();
      } else {
        assertThat(op.path()).matches("/v1/.*|/metrics");
        assertThat(security).as("security of %s", op).isNotEmpty();
        security.forEach(requirement -> assertThat(requirement.has("bearerAuth"))
            .as("%s requires bearerAuth", op).isTrue());
      }
    }
  }

  @Test
  void everyErrorResponseIsProblemJson() {
    for (Operation op : operations) {
      op.node().path("responses").properties().forEach(response -> {
        int status = Integer.parseInt(response.getKey());
        if (status >= 400 && !PUBLIC_PATHS.contains(op.path())) {
          JsonNode content = resolve(response.getValue()).path("content");
          assertThat(content.fieldNames()).toIterable().as("%s %s", op, status).containsExactly("application/problem+json");
          assertThat(content.at("/application~1problem+json/schema/$ref").asText())
              .isEqualTo("#/components/schemas/Problem");
        }
      });
    }
    assertThat(api.at("/components/schemas/Problem/required")).extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("type", "title", "status");
    assertThat(api.at("/components/schemas/FieldError/properties").has("pointer")).isTrue();
  }

  @Test
  void jobsCarryETagsAndTakeIfMatch() {
    for (String method : List.of("get", "put")) {
      JsonNode responses = api.path("paths").path(JOB).path(method).path("responses");
      responses.properties().forEach(r -> {
        if (r.getKey().startsWith("2")) {
          assertThat(r.getValue().at("/headers/ETag/$ref").asText()).as("%s %s", method, r.getKey())
              .isEqualTo("#/components/headers/ETag");
        }
      });
    }
    for (String method : List.of("put", "delete")) {
      assertThat(api.path("paths").path(JOB).path(method).path("parameters")).extracting(p -> p.path("$ref").asText())
          .as(method).contains("#/components/parameters/IfMatch");
    }
  }

  @Test
  void pagedListsTakeAPageTokenAndReturnTheNextOne() {
    for (Operation op : operations) {
      String schema = op.node().at("/responses/200/content/application~1json/schema/$ref").asText();
      if (schema.endsWith("List")) {
        assertThat(op.node().path("parameters")).extracting(p -> p.path("$ref").asText()).as("%s", op)
            .contains("#/components/parameters/PageSize", "#/components/parameters/PageToken");
        JsonNode list = api.at("/components/schemas/" + schema.substring(schema.lastIndexOf('/') + 1));
        assertThat(list.at("/properties/items/type").asText()).isEqualTo("array");
        assertThat(list.at("/properties/nextPageToken/type").asText()).isEqualTo("string");
      }
    }
  }

  private static JsonNode resolve(JsonNode node) {
    String ref = node.path("$ref").asText("");
    return ref.isEmpty() ? node : api.at(ref.substring(1));
  }
}
