package io.tributary.cli.client;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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
    String text;
    try {
      text = "-".equals(file)
          ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CliFailure(ExitCodes.INVALID, "no such file: " + file);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new CliFailure(ExitCodes.INVALID, "cannot read " + file + ": " + e.getMessage());
    }
    return parse(text, "-".equals(file) ? "stdin" : file);
  }

  static RawJobSpec parse(String text, String source) {
    JsonNode tree;
    try {
      tree = text.stripLeading().startsWith("{") ? JSON.readTree(text) : YAML.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new CliFailure(ExitCodes.INVALID, "cannot parse " + source + where + ": "
          + e.getOriginalMessage().lines().findFirst().orElse("").strip());
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
