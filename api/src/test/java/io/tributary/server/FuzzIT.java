package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded, seeded fuzz of specs and bodies: valid specs mutated at random (fields dropped,
 * replaced by values of other types, huge or hostile strings, deep nesting), and raw bodies cut,
 * doubled or garbled, sent as applies (stopped, so nothing runs) and dry runs by an editor and a
 * viewer. No answer is a 5xx, every answer comes within a time bound, and afterwards the project
 * holds exactly the jobs whose applies were accepted.
 */
class FuzzIT {
  static final long SEED = 14;
  static final int CASES = 3_000;
  static final long MAX_MILLIS = 2_000;

  @TempDir
  static Path dir;

  static TributaryServer server;
  static String editor;
  static String viewer;

  @BeforeAll
  static void start() throws Exception {
    server = ServerTests.start(ServerTests.config(dir.resolve("data"), dir.resolve("files"))
        .withQuotas(ServerTests.QUOTAS.withJobs(10_000)));
    editor = Attacks.project(server, "fuzz", "editor");
    viewer = Attacks.project(server, "fuzz", "viewer");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static final String[] HOSTILE = {"../../metadata/metadata.log", "%2e%2e/%2e%2e", "file:///etc/shadow", "/etc/passwd",
      "\u0000", "'; DROP TABLE jobs; --", "${jndi:ldap://x/a}", "x".repeat(5000), "1" + "+1".repeat(3000),
      "localhost:22", "count(*)", "CAST(x AS BOOLEAN)", "\uD83D\uDE00", "", " ", "null", "-1", "1e400", "NaN"};

  static ObjectNode template(Random r, String name) {
    ObjectNode s = JsonNodeFactory.instance.objectNode().put("name", name);
    if (r.nextBoolean()) {
      s.putObject("parallelism").put("initial", 1).put("max", 2);
    }
    s.putObject("checkpoints").put("interval", "1s");
    ObjectNode src = s.putObject("sources").putObject("in");
    switch (r.nextInt(4)) {
      case 0 -> src.put("type", "datagen").put("count", 10).put("maxRecordsPerSecond", 10);
      case 1 -> src.put("type", "file").put("path", "in/data.jsonl");
      case 2 -> src.put("type", "kafka").put("bootstrapServers", "localhost:9092").put("topic", "t");
      default -> src.put("type", "nexmark").put("events", 10).put("eventRate", 100);
    }
    ArrayNode ops = s.putArray("operators");
    ops.addObject().put("id", "f").put("input", "in").put("filter", "id > 1");
    ObjectNode w = ops.addObject().put("id", "w").put("input", "f");
    w.putArray("keyBy").add("key");
    w.putObject("window").put("type", "tumbling").put("size", "1s");
    w.putObject("aggregate").put("n", "count(*)");
    s.putObject("sinks").putObject("out").put("input", "w").put("type", r.nextBoolean() ? "blackhole" : "file")
        .put("path", "out/x");
    return s;
  }

  static JsonNode randomValue(Random r, int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (r.nextInt(depth > 3 ? 6 : 8)) {
      case 0 -> f.textNode(HOSTILE[r.nextInt(HOSTILE.length)]);
      case 1 -> f.numberNode(r.nextLong());
      case 2 -> f.numberNode(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
      case 3 -> f.booleanNode(r.nextBoolean());
      case 4 -> f.nullNode();
      case 5 -> f.textNode(Long.toString(r.nextInt(100)) + (r.nextBoolean() ? "ms" : "s"));
      case 6 -> {
        ArrayNode a = f.arrayNode();
        for (int i = r.nextInt(4); i > 0; i--) {
          a.add(randomValue(r, depth + 1));
        }
        yield a;
      }
      default -> {
        ObjectNode o = f.objectNode();
        for (int i = r.nextInt(4); i > 0; i--) {
          o.set(r.nextBoolean() ? "type" : "k" + r.nextInt(5), randomValue(r, depth + 1));
        }
        yield o;
      }
    };
  }

  /** Replaces or removes a random field somewhere in {@code node}. */
  static void mutate(Random r, JsonNode node) {
    List<JsonNode> containers = new ArrayList<>();
    collect(node, containers);
    JsonNode c = containers.get(r.nextInt(containers.size()));
    if (c instanceof ObjectNode o && o.size() > 0) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      String field = names.get(r.nextInt(names.size()));
      if (r.nextInt(4) == 0) {
        o.remove(field);
      } else {
        o.set(field, randomValue(r, 0));
      }
    } else if (c instanceof ArrayNode a && a.size() > 0) {
      a.set(r.nextInt(a.size()), randomValue(r, 0));
    }
  }

  static void collect(JsonNode n, List<JsonNode> out) {
    if (n.isContainerNode()) {
      out.add(n);
      n.elements().forEachRemaining(e -> collect(e, out));
    }
  }

  static String garble(Random r, String body) {
    return switch (r.nextInt(5)) {
      case 0 -> body.substring(0, r.nextInt(body.length()));
      case 1 -> body + body;
      case 2 -> body + HOSTILE[r.nextInt(HOSTILE.length)];
      case 3 -> {
        char[] c = body.toCharArray();
        for (int i = 0; i < 3; i++) {
          c[r.nextInt(c.length)] = (char) (32 + r.nextInt(95));
        }
        yield new String(c);
      }
      default -> "[".repeat(r.nextInt(2_000)) + "]".repeat(r.nextInt(2_000));
    };
  }

  @Test
  void noFiveHundredsNoPartialStateAndABoundedTimePerRequest() throws Exception {
    Random r = new Random(SEED);
    Set<String> accepted = new HashSet<>();
    int refusedCount = 0;
    for (int i = 0; i < CASES; i++) {
      String name = "j" + (i % 400);
      ObjectNode spec = template(r, name);
      for (int m = r.nextInt(4); m > 0; m--) {
        mutate(r, spec);
      }
      ObjectNode body = JsonNodeFactory.instance.objectNode();
      body.set("spec", spec);
      boolean apply = r.nextInt(3) == 0;
      if (apply) {
        body.put("desiredState", "STOPPED");
      }
      String text = r.nextInt(6) == 0 ? garble(r, body.toString()) : body.toString();
      String token = r.nextInt(5) == 0 ? viewer : editor;
      String path = apply ? "/v1/projects/fuzz/jobs/" + name : "/v1/projects/fuzz/plans";
      long start = System.nanoTime();
      HttpResponse<String> resp = ServerTests.send(server, apply ? "PUT" : "POST", path, token, text);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(resp.statusCode()).as("case %d: %s -> %s", i, text.length() > 500 ? text.substring(0, 500) : text,
          resp.body()).isLessThan(500);
      assertThat(millis).as("case %d took too long", i).isLessThan(MAX_MILLIS);
      if (apply && (resp.statusCode() == 200 || resp.statusCode() == 201)) {
        accepted.add(name);
      } else if (resp.statusCode() >= 400) {
        refusedCount++;
      }
    }
    assertThat(refusedCount).as("the fuzz reaches the validation").isGreaterThan(CASES / 4);
    assertThat(new HashSet<>(Attacks.jobs(server, "fuzz"))).isEqualTo(accepted);
  }
}
