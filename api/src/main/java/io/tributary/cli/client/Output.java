package io.tributary.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.tributary.client.ApiClient;
import java.io.PrintStream;

/** Prints a result: a table or message for people, or the API resource as JSON or YAML. */
final class Output {
  private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

  private final ServerOptions.Format format;
  private final PrintStream out = System.out;

  Output(ServerOptions.Format format) {
    this.format = format;
  }

  ServerOptions.Format format() {
    return format;
  }

  /** Whether the result is for people (a table or a message). */
  boolean human() {
    return format == ServerOptions.Format.TABLE;
  }

  /** Prints the resource as JSON or YAML; with table output, prints {@code human} instead. */
  void print(Object resource, Runnable human) {
    if (human()) {
      human.run();
    } else {
      out.print(render(resource, format));
      out.flush();
    }
  }

  /** Prints one line, in table output only (JSON and YAML output print nothing but the resource). */
  void message(String line) {
    if (human()) {
      out.println(line);
    }
  }

  void table(Table table) {
    out.print(table.render());
    out.flush();
  }

  static String render(Object resource, ServerOptions.Format format) {
    try {
      JsonNode tree = JSON.valueToTree(resource);
      return format == ServerOptions.Format.YAML
          ? YAML.writeValueAsString(tree)
          : JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print the resource: " + e.getOriginalMessage(), e);
    }
  }
}
