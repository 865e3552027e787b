package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.client.ApiClient;
import io.tributary.client.ApiException;
import io.tributary.client.ApiResponse;
import io.tributary.client.api.JobsApi;
import io.tributary.client.api.PlansApi;
import io.tributary.client.model.ExecutionPlan;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobApply;
import io.tributary.client.model.ObservedState;
import io.tributary.client.model.PlanChange;
import io.tributary.client.model.PlanRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL jobs over the API: `sql` beside `spec` in applies and dry runs, errors at /sql with line and column. */
class SqlJobsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Like {@link ServerTests#trickle}, written as SQL: 50 numbers a second, by key, into a blackhole. */
  private static final String TRICKLE = """
      SET 'checkpoints.interval' = '200ms';
      SET 'state.backend' = 'heap';
      CREATE TABLE numbers (id BIGINT, `key` BIGINT, `value` BIGINT)
        WITH ('connector' = 'datagen', 'count' = '100000000', 'maxRecordsPerSecond' = '50');
      CREATE TABLE sink (id BIGINT, doubled BIGINT) WITH ('connector' = 'blackhole');
      INSERT INTO sink SELECT id, `value` * 2 FROM numbers WHERE `key` >= 0;
      """;

  @TempDir
  Path dir;

  TributaryServer server;
  ApiClient client;

  @BeforeEach
  void start() {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    client = ServerTests.client(server, ServerTests.ADMIN);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aSqlJobIsAppliedAsTheSpecItCompilesToAndKeepsItsText() throws Exception {
    JobsApi jobs = new JobsApi(client);
    ApiResponse<Job> created = jobs.applyJobWithHttpInfo("default", "trickle", new JobApply().sql(TRICKLE), null, null);

    assertThat(created.getStatusCode()).isEqualTo(201);
    Job job = created.getData();
    assertThat(job.getSql()).isEqualTo(TRICKLE);
    JsonNode spec = JSON.valueToTree(job.getSpec());
    assertThat(spec.path("name").asText()).isEqualTo("trickle");
    assertThat(spec.path("sources").path("numbers").path("type").asText()).isEqualTo("datagen");
    assertThat(spec.path("sinks").path("sink").path("type").asText()).isEqualTo("blackhole");
    ApiServerIT.await(jobs, "default", "trickle", j -> j.getObservedState() == ObservedState.RUNNING);

    String reformatted = "-- the same job\n" + TRICKLE.replace("  ", "    ").replace("WHERE", "\nWHERE");
    ApiResponse<Job> again = jobs.applyJobWithHttpInfo("default", "trickle", new JobApply().sql(reformatted), null,
        null);
    assertThat(again.getStatusCode()).isEqualTo(200);
    assertThat(again.getData().getVersion()).as("the same meaning changes nothing").isEqualTo(job.getVersion());
    assertThat(jobs.getJob("default", "trickle").getSql()).isEqualTo(TRICKLE);

    ExecutionPlan plan = new PlansApi(client).planJob("default", new PlanRequest().sql(reformatted).name("trickle"));
    assertThat(plan.getJobName()).isEqualTo("trickle");
    assertThat(plan.getChange().getAction()).isEqualTo(PlanChange.ActionEnum.NONE);

    Job changed = jobs.applyJob("default", "trickle", new JobApply().sql(TRICKLE.replace("* 2", "* 3")), null, null);
    assertThat(changed.getVersion()).isGreaterThan(job.getVersion());
    assertThat(changed.getSql()).contains("* 3");
  }

  @Test
  void aDryRunOfSqlNamesTheJobItsTextSets() throws Exception {
    ExecutionPlan plan = new PlansApi(client).planJob("default",
        new PlanRequest().sql("SET 'name' = 'named';\n" + TRICKLE));

    assertThat(plan.getJobName()).isEqualTo("named");
    assertThat(plan.getChange().getAction()).isEqualTo(PlanChange.ActionEnum.CREATE);
    assertThat(plan.getStages()).hasSize(1);
  }

  @Test
  void anInvalidSqlJobIsA400WhoseErrorsPointAtSqlWithLineAndColumn() throws Exception {
    String sql = TRICKLE.replace("`value` * 2", "`valeu` * 2");
    HttpResponse<String> r = ServerTests.send(server, "PUT", "/v1/projects/default/jobs/trickle", ServerTests.ADMIN,
        JSON.createObjectNode().put("sql", sql).toString());

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/problem+json");
    JsonNode problem = JSON.readTree(r.body());
    assertThat(problem.path("title").asText()).isEqualTo("Invalid job spec");
    JsonNode error = problem.path("errors").get(0);
    assertThat(error.path("pointer").asText()).isEqualTo("/sql");
    assertThat(error.path("line").asInt()).isEqualTo(6);
    int column = "INSERT INTO sink SELECT id, `".length();
    assertThat(error.path("column").asInt()).isEqualTo(column);
    assertThat(error.path("message").asText()).isEqualTo("Column 'valeu' not found in any table");
    assertThat(problem.path("detail").asText())
        .isEqualTo("/sql (line 6, column " + column + "): Column 'valeu' not found in any table");
  }

  @Test
  void aNameSetInTheTextMustBeThePathsAndIsReportedWhereItIsSet() throws Exception {
    assertThatThrownBy(() -> new JobsApi(client).applyJob("default", "trickle",
        new JobApply().sql("SET 'name' = 'other';\n" + TRICKLE), null, null))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(400);
          assertThat(e.getResponseBody()).contains("\"pointer\":\"/sql\"").contains("\"line\":1")
              .contains("must be 'trickle'");
        });
  }

  @Test
  void aFileOutsideTheProjectsDirectoriesIsReportedAtItsOption() throws Exception {
    String sql = TRICKLE.replace("WITH ('connector' = 'blackhole')",
        "WITH ('connector' = 'file',\n  'path' = '/etc/tributary-out')");
    assertThatThrownBy(() -> new JobsApi(client).applyJob("default", "trickle", new JobApply().sql(sql), null, null))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(400);
          assertThat(e.getResponseBody()).contains("\"pointer\":\"/sql\"").contains("\"line\":6")
              .contains("table 'sink', option 'path'");
        });
  }

  @Test
  void specAndSqlTogetherOrNeitherIsRefused() throws Exception {
    HttpResponse<String> both = ServerTests.send(server, "PUT", "/v1/projects/default/jobs/trickle", ServerTests.ADMIN,
        "{\"sql\": \"INSERT INTO a SELECT 1\", \"spec\": {\"name\": \"trickle\"}}");
    assertThat(both.statusCode()).isEqualTo(400);
    assertThat(both.body()).contains("\"pointer\":\"/sql\"").contains("not both");

    HttpResponse<String> neither = ServerTests.send(server, "POST", "/v1/projects/default/plans", ServerTests.ADMIN,
        "{}");
    assertThat(neither.statusCode()).isEqualTo(400);
    assertThat(neither.body()).contains("\"pointer\":\"/spec\"");
  }
}
