package io.tributary.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.client.model.ExecutionPlan;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobApply;
import io.tributary.client.model.JobMetrics;
import io.tributary.client.model.PlanRequest;
import io.tributary.client.model.Problem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The examples in tributary.yaml are instances of their schemas: the models read them whole. */
class ExamplesTest {
  private static final ObjectMapper CLIENT = ApiClient.createDefaultObjectMapper();

  @Test
  void everyNamedExampleReadsIntoItsModelWithoutLoss() throws IOException {
    JsonNode api = new ObjectMapper(new YAMLFactory()).readTree(Path.of(System.getProperty("tributary.openapi.spec")).toFile());
    Map<String, Class<?>> models = Map.of(
        "ClicksPerUserApply", JobApply.class, "ClicksPerUserPlanRequest", PlanRequest.class,
        "RunningJob", Job.class, "ClicksPerUserPlan", ExecutionPlan.class,
        "InvalidSpecProblem", Problem.class, "ClicksPerUserMetrics", JobMetrics.class,
        "SqlJobApply", JobApply.class, "InvalidSqlProblem", Problem.class);
    assertThat(api.at("/components/examples").fieldNames()).toIterable()
        .containsExactlyInAnyOrderElementsOf(models.keySet());

    for (Map.Entry<String, Class<?>> example : models.entrySet()) {
      JsonNode value = api.at("/components/examples/" + example.getKey() + "/value");
      Object model = CLIENT.treeToValue(value, example.getValue());
      JsonNode written = CLIENT.valueToTree(model);
      assertThat(JsonDiff.lostOrChanged(value, written)).as(example.getKey()).isEmpty();
    }
  }

  @Test
  void problemExampleNamesTheOffendingFields() throws IOException {
    JsonNode api = new ObjectMapper(new YAMLFactory()).readTree(Path.of(System.getProperty("tributary.openapi.spec")).toFile());

    Problem problem = CLIENT.treeToValue(api.at("/components/examples/InvalidSpecProblem/value"), Problem.class);

    assertThat(problem.getStatus()).isEqualTo(400);
    assertThat(problem.getErrors()).extracting(e -> e.getPointer())
        .containsExactly("/spec/operators/1/window/size", "/spec/sinks/results/input");
    Problem sql = CLIENT.treeToValue(api.at("/components/examples/InvalidSqlProblem/value"), Problem.class);
    assertThat(sql.getErrors()).singleElement().satisfies(e -> {
      assertThat(e.getPointer()).isEqualTo("/sql");
      assertThat(e.getLine()).isPositive();
      assertThat(e.getColumn()).isPositive();
    });
  }
}
