package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.spec.internal.Pointers;
import java.util.HashSet;
import java.util.Set;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The job spec a SQL job compiles to, as the JSON document a user could have written: its
 * settings (from SET), sources and sinks (from the tables read and written), and operators (from
 * the statements), each part's origin recorded in a {@link Locator}.
 */
final class SpecDocument {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final ObjectNode root = JSON.objectNode();
  private final ObjectNode sources = JSON.objectNode();
  private final ArrayNode operators = JSON.arrayNode();
  private final ObjectNode sinks = JSON.objectNode();
  private final Locator locator = new Locator();
  private final Set<String> ids = new HashSet<>();
  private int counter;

  Locator locator() {
    return locator;
  }

  /** Sets {@code pointer} (a top-level setting or a field of one) to {@code value}. */
  void setting(String[] path, JsonNode value, SqlParserPos pos, String context) {
    ObjectNode parent = root;
    String at = "";
    for (int i = 0; i < path.length - 1; i++) {
      at = Pointers.child(at, path[i]);
      JsonNode child = parent.get(path[i]);
      if (child != null && !child.isObject()) {
        throw new SqlProblem(pos, context + " sets a field of '" + at.substring(1).replace('/', '.') + "', which an "
            + "earlier SET gives a value");
      }
      parent = child == null ? parent.putObject(path[i]) : (ObjectNode) child;
    }
    String last = path[path.length - 1];
    if (parent.has(last)) {
      throw new SqlProblem(pos, context + " is set twice");
    }
    parent.set(last, value);
    locator.put(Pointers.child(at, last), pos, context);
  }

  /** Whether a setting is given. */
  boolean has(String name) {
    return root.has(name);
  }

  /** Adds table {@code def} as a source, once. */
  void source(TableDef def) {
    if (sources.has(def.name())) {
      return;
    }
    String at = Pointers.child("/sources", def.name());
    locator.put(at, def.pos(), "table '" + def.name() + "'", "option");
    ObjectNode entry = ConnectorOptions.entry(def, true, at, locator);
    if (entry.has("eventTime") && (entry.get("eventTime").has("field")
        || entry.get("eventTime").has("maxOutOfOrderness"))) {
      throw new SqlProblem(def.options().get("eventTime.field") != null ? def.options().get("eventTime.field").pos()
          : def.pos(), "table '" + def.name() + "': declare its event time with WATERMARK FOR, not with options");
    }
    if (def.watermark() != null) {
      ObjectNode eventTime = entry.has("eventTime") ? (ObjectNode) entry.get("eventTime") : entry.putObject("eventTime");
      eventTime.put("field", def.watermark().column());
      eventTime.put("maxOutOfOrderness", def.watermark().delayMillis() + "ms");
      locator.put(at + "/eventTime", def.watermark().pos(), "table '" + def.name() + "', its WATERMARK");
    }
    sources.set(def.name(), entry);
    ids.add(def.name());
  }

  /** Adds table {@code def} as a sink of {@code input}'s records. */
  void sink(TableDef def, String input, SqlParserPos insert) {
    String at = Pointers.child("/sinks", def.name());
    locator.put(at, def.pos(), "table '" + def.name() + "'", "option");
    locator.put(at + "/input", insert, "INSERT INTO " + def.name());
    ObjectNode entry = JSON.objectNode();
    entry.put("input", input);
    entry.setAll(ConnectorOptions.entry(def, false, at, locator));
    sinks.set(def.name(), entry);
    ids.add(def.name());
  }

  /** Whether table {@code name} is a source or a sink already. */
  boolean isSource(String name) {
    return sources.has(name);
  }

  boolean isSink(String name) {
    return sinks.has(name);
  }

  /** Reserves the names of the tables, so that no operator takes one. */
  void reserve(Set<String> names) {
    ids.addAll(names);
  }

  /**
   * Adds an operator of {@code body}'s parts under a fresh id {@code <kind>-<n>} and returns the
   * id; {@code pos} is the statement it comes from.
   */
  String operator(String kind, ObjectNode body, SqlParserPos pos, String context) {
    String id;
    do {
      id = kind + "-" + (++counter);
    } while (!ids.add(id));
    ObjectNode op = JSON.objectNode();
    op.put("id", id);
    op.setAll(body);
    locator.put("/operators/" + operators.size(), pos, context);
    operators.add(op);
    return id;
  }

  /** The whole document. */
  ObjectNode document() {
    ObjectNode doc = JSON.objectNode();
    doc.setAll(root);
    doc.set("sources", sources);
    doc.set("operators", operators);
    doc.set("sinks", sinks);
    return doc;
  }
}
