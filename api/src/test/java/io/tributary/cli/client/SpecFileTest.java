package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.client.ApiClient;
import io.tributary.client.model.DesiredState;
import io.tributary.client.model.JobApply;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec files become the JSON tree the API takes, unchanged, even with fields the client does not know. */
class SpecFileTest {
  private static final ObjectMapper CLIENT = RawJobSpec.register(ApiClient.createDefaultObjectMapper());

  @TempDir
  Path tmp;

  @Test
  void yamlIsSentAsTheJsonTreeItDenotesWithUnknownFieldsAndWrongTypesKept() throws Exception {
    RawJobSpec spec = SpecFile.parse("""
        name: clicks
        parallelism: two             # wrong type: the server must see it to point at it
        sources:
          s: {type: datagen, maxRecordPerSecond: 10}   # misspelt: the server must see it
        sinks:
          out: {input: s, type: blackhole}
        """, "job.yaml");

    JobApply apply = new JobApply().spec(spec).desiredState(DesiredState.STOPPED);
    JsonNode sent = CLIENT.readTree(CLIENT.writeValueAsString(apply));

    assertThat(spec.getName()).isEqualTo("clicks");
    assertThat(sent.at("/spec/parallelism").asText()).isEqualTo("two");
    assertThat(sent.at("/spec/sources/s/maxRecordPerSecond").asInt()).isEqualTo(10);
    assertThat(sent.at("/spec/sinks/out/type").asText()).isEqualTo("blackhole");
    assertThat(sent.at("/desiredState").asText()).isEqualTo("STOPPED");
  }

  @Test
  void jsonFilesAreReadAsJson() throws Exception {
    Path file = tmp.resolve("job.json");
    Files.writeString(file, "{\"name\": \"j\", \"sources\": {}, \"sinks\": {}}");
    assertThat(SpecFile.read(file.toString()).document().get("sources").isObject()).isTrue();
  }

  @Test
  void unreadableOrNamelessSpecsFailWithExitCode2() {
    assertThatThrownBy(() -> SpecFile.read(tmp.resolve("nope.yaml").toString()))
        .isInstanceOfSatisfying(CliFailure.class, f -> assertThat(f.exitCode()).isEqualTo(2))
        .hasMessageStartingWith("no such file: ");
    assertThatThrownBy(() -> SpecFile.parse("sources: {}", "job.yaml"))
        .hasMessage("job.yaml has no name: /name is required");
    assertThatThrownBy(() -> SpecFile.parse("- a\n- b", "job.yaml"))
        .hasMessage("job.yaml is not a job spec: expected a YAML or JSON object");
    assertThatThrownBy(() -> SpecFile.parse("name: [unclosed", "job.yaml"))
        .hasMessageStartingWith("cannot parse job.yaml at line ");
    assertThatThrownBy(() -> SpecFile.parse("name: [", "job.yaml")).as("the parser's problem, not only its context")
        .hasMessage("cannot parse job.yaml at line 1, column 8: while parsing a flow node; expected the node content, "
            + "but found '<stream end>'");
  }

  @Test
  void aFileOfTwoYamlDocumentsIsRefusedWithTheReason() {
    assertThatThrownBy(() -> SpecFile.parse("name: a\n---\nname: b\n", "multi.yaml"))
        .isInstanceOf(CliFailure.class).hasMessage("multi.yaml " + io.tributary.scheduler.spec.SpecParser.SECOND_DOCUMENT);
  }
}
