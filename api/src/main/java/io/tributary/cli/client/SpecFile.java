package io.tributary.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * A job spec file, YAML or JSON ({@code -} reads stdin), as the JSON tree the API takes as
 * {@code spec}. Values keep their YAML types: {@code size: 10s} is a string, {@code
 * parallelism: 2} a number.
 */
final class SpecFile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private SpecFile() {}

  /** The spec in {@code file}; a file that cannot be read or parsed fails with exit code 2. */
  static RawJobSpec read(String file) {
    return parse(JobFiles.read(file), "-".equals(file) ? "stdin" : file);
  }

  static RawJobSpec parse(String text, String source) {
    JsonNode tree;
    try {
      tree = io.tributary.scheduler.spec.SpecParser.onlyDocument(text.stripLeading().startsWith("{") ? JSON : YAML,
          text);
    } catch (io.tributary.scheduler.spec.SpecParser.SecondDocument e) {
      throw new CliFailure(ExitCodes.INVALID, source + " " + io.tributary.scheduler.spec.SpecParser.SECOND_DOCUMENT);
    } catch (JsonProcessingException e) {
      throw new CliFailure(ExitCodes.INVALID, "cannot parse " + source
          + io.tributary.scheduler.spec.SpecParser.syntaxError(e));
    }
    if (!(tree instanceof ObjectNode document)) {
      throw new CliFailure(ExitCodes.INVALID, source + " is not a job spec: expected a YAML or JSON object");
    }
    RawJobSpec spec = new RawJobSpec(document);
    if (spec.getName() == null || spec.getName().isBlank()) {
      throw new CliFailure(ExitCodes.INVALID, source + " has no name: /name is required");
    }
    return spec;
  }
}
