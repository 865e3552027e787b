package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only token sends dry runs built to keep Calcite's parser busy: tens of thousands of terms,
 * thousands of chained operators, deep parentheses, a select of 20,000 fields, hundreds of
 * operators. Each is refused with 400 naming the field, quickly (the bounds hold before any
 * expression is parsed), and nothing is stored.
 */
class BoundedParsingIT {
  /** Far more than a bounded refusal takes, far less than parsing such input took before. */
  static final long MAX_MILLIS = 3_000;

  @TempDir
  static Path dir;

  static TributaryServer server;
  static String viewer;

  @BeforeAll
  static void start() throws Exception {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    viewer = Attacks.project(server, "team-a", "viewer");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static ObjectNode spec(int operators) {
    ObjectNode s = Attacks.JSON.createObjectNode().put("name", "stall");
    s.putObject("sources").putObject("in").put("type", "datagen").put("count", 10);
    ArrayNode ops = s.putArray("operators");
    for (int i = 0; i < operators; i++) {
      ops.addObject().put("id", "op" + i).put("input", i == 0 ? "in" : "op" + (i - 1)).put("filter", "id > " + i);
    }
    s.putObject("sinks").putObject("out").put("input", operators == 0 ? "in" : "op" + (operators - 1))
        .put("type", "blackhole");
    return s;
  }

  static void refusedQuickly(ObjectNode spec, String pointer) throws Exception {
    String body = Attacks.JSON.createObjectNode().set("spec", spec).toString();
    long start = System.nanoTime();
    HttpResponse<String> r = ServerTests.send(server, "POST", "/v1/projects/team-a/plans", viewer, body);
    long millis = (System.nanoTime() - start) / 1_000_000;
    Attacks.refused(r, 400, pointer);
    assertThat(millis).as("time to refuse %s", pointer).isLessThan(MAX_MILLIS);
    assertThat(Attacks.jobs(server, "team-a")).isEmpty();
  }

  static ObjectNode withFilter(String filter) {
    ObjectNode s = spec(1);
    ((ObjectNode) s.get("operators").get(0)).put("filter", filter);
    return s;
  }

  @Test
  void longExpressionsAreRefusedBeforeTheyAreParsed() throws Exception {
    refusedQuickly(withFilter("1" + "+1".repeat(60_000) + " > 0"), "/spec/operators/0/filter");
    refusedQuickly(withFilter("id > 0" + " AND id > 0".repeat(3_000)), "/spec/operators/0/filter");
    refusedQuickly(withFilter("(".repeat(2_000) + "id" + ")".repeat(2_000) + " > 0"), "/spec/operators/0/filter");
    refusedQuickly(withFilter("id > 0" + " OR id > 1".repeat(200)), "/spec/operators/0/filter");
  }

  @Test
  void hugeSelectsAndManyOperatorsAreRefusedBeforeAnyExpressionIsParsed() throws Exception {
    ObjectNode wide = spec(1);
    ObjectNode op = (ObjectNode) wide.get("operators").get(0);
    op.remove("filter");
    ObjectNode select = op.putObject("select");
    for (int i = 0; i < 20_000; i++) {
      select.put("f" + i, "id + " + i);
    }
    refusedQuickly(wide, "/spec/operators/0/select");
    refusedQuickly(spec(500), "/spec/operators");
  }

  @Test
  void specsWithinTheBoundsStillPlanForAViewer() throws Exception {
    String body = Attacks.JSON.createObjectNode().set("spec", spec(10)).toString();
    assertThat(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", viewer, body).statusCode()).isEqualTo(200);
    assertThat(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/stall", viewer, body).statusCode())
        .as("a viewer may not apply").isEqualTo(403);
  }
}
