package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.scheduler.spec.sql.internal.parser.SqlLiterals;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

/**
 * A job's settings from its SET statements: {@code SET 'parallelism' = '2'} (or Calcite's
 * {@code SET parallelism = 2}) sets the spec's field of that name, a dotted key such as
 * {@code checkpoints.interval} a field of an object. Values are read as YAML scalars, as in a
 * spec ({@code '2'} a number, {@code 'true'} a boolean, {@code '10s'} a string); {@code name} is
 * always a string.
 */
final class Settings {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> TABLES = Set.of("sources", "operators", "sinks");

  private Settings() {}

  /** Adds {@code set}'s setting to {@code doc}. */
  static void add(SqlSetOption set, SpecDocument doc) {
    if (set.getScope() != null) {
      throw new SqlProblem(set.getParserPosition(), "ALTER " + set.getScope() + " SET is not supported: write SET "
          + "'key' = 'value'");
    }
    SqlNode value = set.getValue();
    if (value == null) {
      throw new SqlProblem(set.getParserPosition(), "RESET is not supported: a job's settings are its SET statements");
    }
    List<String> path = set.getName().names;
    String key = String.join(".", path);
    String[] parts = key.split("\\.", -1);
    if (TABLES.contains(parts[0])) {
      throw new SqlProblem(set.getName().getParserPosition(), "a SQL job declares its " + parts[0] + " with CREATE "
          + "TABLE and INSERT INTO, not with SET");
    }
    String text = value instanceof SqlIdentifier id ? id.toString() : SqlLiterals.text(value);
    JsonNode json = key.equals("name") ? JsonNodeFactory.instance.textNode(text) : scalar(text);
    doc.setting(parts, json, set.getName().getParserPosition(), "SET '" + key + "'");
  }

  private static JsonNode scalar(String text) {
    try {
      JsonNode node = YAML.readTree(text);
      return node == null || node.isMissingNode() || node.isContainerNode() ? JsonNodeFactory.instance.textNode(text)
          : node;
    } catch (JsonProcessingException e) {
      return JsonNodeFactory.instance.textNode(text);
    }
  }
}
