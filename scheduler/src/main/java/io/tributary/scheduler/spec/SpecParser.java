package io.tributary.scheduler.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.scheduler.spec.internal.ObjectReader;
import io.tributary.scheduler.spec.internal.Pointers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads a job spec written in YAML or JSON (one YAML reader reads both) into a {@link JobSpec}.
 * It checks the document's shape: field names, JSON types, required fields, allowed values,
 * durations and type-specific connector properties, each error with its JSON pointer. Semantic
 * checks (references, cycles, bounds, expressions) are {@link SpecValidator}'s.
 */
public final class SpecParser {
  private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory())
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /**
   * What a document holds.
   *
   * @param spec null if the document is not an object at all; else the spec, with null parts where
   *     the document was wrong
   * @param errors shape errors, empty if none
   */
  public record Result(JobSpec spec, List<SpecError> errors) {
    public Result {
      errors = List.copyOf(errors);
    }
  }

  private SpecParser() {}

  /** What a text with a second YAML document after the spec is told. */
  public static final String SECOND_DOCUMENT = "holds more than one YAML document (a line '---' starts another):"
      + " a spec is one job; put each job in a file of its own";

  /** A text holds a second document after the spec ({@link #SECOND_DOCUMENT}). */
  public static final class SecondDocument extends JsonProcessingException {
    private static final long serialVersionUID = 1L;

    SecondDocument() {
      super(SECOND_DOCUMENT);
    }
  }

  /**
   * The one document of {@code text} read by {@code mapper} (YAML or JSON): a missing node when the
   * text holds none (it is empty, or only comments).
   *
   * @throws SecondDocument if another document follows it
   * @throws JsonProcessingException if the text is malformed
   */
  public static JsonNode onlyDocument(ObjectMapper mapper, String text) throws JsonProcessingException {
    try (com.fasterxml.jackson.core.JsonParser parser = mapper.createParser(text)) {
      JsonNode first = mapper.readTree(parser);
      if (first == null) {
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
      }
      if (parser.nextToken() != null) {
        throw new SecondDocument();
      }
      return first;
    } catch (JsonProcessingException e) {
      throw e;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // a String is read without I/O
    }
  }

  /** Reads {@code text}, collecting every shape error instead of throwing. */
  public static Result read(String text) {
    List<SpecError> errors = new ArrayList<>();
    JsonNode root;
    try {
      root = onlyDocument(MAPPER, text);
    } catch (SecondDocument e) {
      return new Result(null, List.of(new SpecError("", SECOND_DOCUMENT)));
    } catch (JsonProcessingException e) {
      return new Result(null, List.of(new SpecError("", malformed(e))));
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return new Result(null, List.of(new SpecError("", "the spec is empty")));
    }
    ObjectReader reader = ObjectReader.of(root, "", errors);
    return new Result(reader == null ? null : job(reader), errors);
  }

  /**
   * Reads {@code text} and returns the spec if its shape is right (it is not yet validated).
   *
   * @throws InvalidSpecException with every shape error
   */
  public static JobSpec parse(String text) {
    Result result = read(text);
    if (!result.errors().isEmpty()) {
      throw new InvalidSpecException(result.errors());
    }
    return result.spec();
  }

  private static String malformed(JsonProcessingException e) {
    return "malformed YAML/JSON" + syntaxError(e);
  }

  /**
   * Where and why a YAML or JSON text could not be parsed, on one line: {@code " at line 1, column 8:
   * while parsing a flow node; expected the node content, but found '<stream end>'"} (the parser's
   * context and problem, without its excerpt of the text).
   */
  public static String syntaxError(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    String why = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines()
        .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
        .collect(Collectors.joining("; "))
        .replaceFirst("^Duplicate field ('[^']*').*", "duplicate field $1");
    return where + ": " + why;
  }

  private static JobSpec job(ObjectReader r) {
    String name = r.requiredString("name");
    ParallelismSpec parallelism = parallelism(r);
    Integer maxParallelism = r.integer("maxParallelism");
    CheckpointSpec checkpoints = checkpoints(r.object("checkpoints"));
    StateSpec state = state(r.object("state"));
    Map<String, SourceSpec> sources = keyed(r, "sources", SourceReader::read);
    List<OperatorSpec> operators = operators(r);
    Map<String, SinkSpec> sinks = keyed(r, "sinks", SinkReader::read);
    AutoscalerSpec autoscaler = autoscaler(r.object("autoscaler"), parallelism);
    Long idleAfter = idleAfter(r, sources, checkpoints);
    r.rejectUnknown();
    return new JobSpec(name, parallelism, maxParallelism, checkpoints, state, sources, operators, sinks, autoscaler,
        idleAfter);
  }

  /**
   * {@code idleAfter}: {@code off} (0), a duration, or absent (null, the default). A duration needs
   * checkpoints (the job resumes from the one it takes when it goes idle) and sources whose new
   * input can be seen while the job holds no worker.
   */
  private static Long idleAfter(ObjectReader r, Map<String, SourceSpec> sources, CheckpointSpec checkpoints) {
    JsonNode node = r.field("idleAfter");
    if (node == null) {
      return null;
    }
    // YAML 1.1 reads a bare off as false
    if ((node.isTextual() && node.textValue().equals("off")) || (node.isBoolean() && !node.booleanValue())) {
      return 0L;
    }
    if (node.isBoolean()) {
      r.error("idleAfter", "must be a duration such as 10m, or off");
      return null;
    }
    Long millis = r.duration("idleAfter", true, null);
    if (millis == null) {
      return null;
    }
    if (millis < 1000) {
      r.error("idleAfter", "must be at least 1s (or off), got " + millis + " ms");
      return null;
    }
    if (checkpoints == null) {
      r.error("idleAfter", "a job that scales to zero resumes from the checkpoint it takes when it goes idle: "
          + "give it checkpoints: {interval}, or set idleAfter: off");
      return null;
    }
    if (sources != null) {
      for (SourceSpec s : sources.values()) {
        if (s != null && s.type() != null && !JobSpec.WATCHABLE_SOURCES.contains(s.type())) {
          r.error("idleAfter", "source '" + s.id() + "' (" + s.type() + ") cannot be watched for new input while "
              + "the job is idle, so the job would never resume; only " + JobSpec.WATCHABLE_SOURCES
              + " sources can: set idleAfter: off");
          return null;
        }
      }
    }
    return millis;
  }

  /** The {@code autoscaler} block with its defaults, or null when absent. */
  private static AutoscalerSpec autoscaler(ObjectReader o, ParallelismSpec parallelism) {
    if (o == null) {
      return null;
    }
    io.tributary.scheduler.autoscale.AutoscalerSettings d = io.tributary.scheduler.autoscale.AutoscalerSettings.DEFAULTS;
    boolean enabled = true;
    JsonNode on = o.field("enabled");
    if (on != null) {
      if (on.isBoolean()) {
        enabled = on.booleanValue();
      } else {
        o.error("enabled", "must be true or false");
      }
    }
    Double target = o.positiveNumber("targetUtilization");
    if (target != null && target > 1) {
      o.error("targetUtilization", "must be at most 1 (the busy fraction a stage is sized for), got " + target);
      target = null;
    }
    double t = target == null ? d.targetUtilization() : target;
    double band = d.utilizationBand();
    JsonNode b = o.field("utilizationBand");
    if (b != null) {
      if (!b.isNumber() || b.doubleValue() < 0 || b.doubleValue() >= t) {
        o.error("utilizationBand", "must be a number from 0 up to, not including, the target utilization " + t);
      } else {
        band = b.doubleValue();
      }
    } else if (band >= t) {
      band = t / 2;
    }
    Long window = o.duration("metricsWindow", true, d.metricsWindow().toMillis());
    Long stabilization = o.duration("stabilization", false, d.stabilization().toMillis());
    Long scaleDownDelay = o.duration("scaleDownDelay", false, d.scaleDownDelay().toMillis());
    Long catchUp = o.duration("catchUpDuration", true, d.catchUpDuration().toMillis());
    Integer cap = o.integer("maxDecisionsPerHour");
    if (cap != null && (cap < 1 || cap > 60)) {
      o.error("maxDecisionsPerHour", "must be between 1 and 60, got " + cap);
      cap = null;
    }
    if (enabled && parallelism.min() == parallelism.max()) {
      o.error("enabled", "the parallelism is pinned at " + parallelism.min()
          + ": give parallelism: {min, max} for the autoscaler to move it within");
    }
    o.rejectUnknown();
    return new AutoscalerSpec(enabled, t, band, window == null ? d.metricsWindow().toMillis() : window,
        stabilization == null ? d.stabilization().toMillis() : stabilization,
        scaleDownDelay == null ? d.scaleDownDelay().toMillis() : scaleDownDelay,
        catchUp == null ? d.catchUpDuration().toMillis() : catchUp,
        cap == null ? d.maxDecisionsPerHour() : cap);
  }

  private static ParallelismSpec parallelism(ObjectReader r) {
    JsonNode node = r.field("parallelism");
    if (node == null) {
      return ParallelismSpec.fixed(1);
    }
    if (node.isNumber()) {
      Integer p = r.integer("parallelism");
      return ParallelismSpec.fixed(p == null ? 1 : p);
    }
    if (!node.isObject()) {
      r.error("parallelism", "must be an integer or {initial, min, max}, found "
          + io.tributary.scheduler.spec.internal.JsonValues.describe(node));
      return ParallelismSpec.fixed(1);
    }
    ObjectReader o = ObjectReader.of(node, r.pointerOf("parallelism"), r.errors());
    if (o == null) {
      return ParallelismSpec.fixed(1);
    }
    Integer initial = o.integer("initial");
    Integer min = o.integer("min");
    Integer max = o.integer("max");
    o.rejectUnknown();
    int i = initial != null ? initial : min != null ? min : 1;
    return new ParallelismSpec(i, min != null ? min : i, max != null ? max : i);
  }

  private static CheckpointSpec checkpoints(ObjectReader o) {
    if (o == null) {
      return null;
    }
    if (!o.has("interval")) {
      o.error("interval", "is required");
    }
    Long interval = o.duration("interval", true, null);
    String mode = o.enumValue("mode", List.of("exactly-once", "at-least-once"), "exactly-once");
    Integer retain = o.integer("retain");
    if (retain != null && (retain < 1 || retain > 100)) {
      o.error("retain", "must be between 1 and 100, got " + retain);
    }
    boolean unaligned = false;
    JsonNode u = o.field("unaligned");
    if (u != null && !u.isBoolean()) {
      o.error("unaligned", "must be true or false");
    } else if (u != null) {
      unaligned = u.booleanValue();
      if (unaligned && !"exactly-once".equals(mode)) {
        o.error("unaligned", "applies to exactly-once checkpoints only; drop it or use mode: exactly-once");
      }
    }
    Long timeout = o.duration("alignmentTimeout", true, null);
    if (timeout != null && !unaligned) {
      o.error("alignmentTimeout", "applies to unaligned checkpoints only; add unaligned: true or drop it");
    }
    o.rejectUnknown();
    return new CheckpointSpec(interval == null ? 0 : interval, mode,
        retain == null ? CheckpointSpec.DEFAULT_RETAIN : retain, unaligned, timeout == null ? 0 : timeout);
  }

  private static StateSpec state(ObjectReader o) {
    if (o == null) {
      return StateSpec.DEFAULT;
    }
    String backend = o.enumValue("backend", List.of("heap", "forst"), StateSpec.DEFAULT.backend());
    Boolean allowNonRestored = null;
    JsonNode a = o.field("allowNonRestoredState");
    if (a != null && !a.isBoolean()) {
      o.error("allowNonRestoredState", "must be true or false");
    } else if (a != null) {
      allowNonRestored = a.booleanValue() ? Boolean.TRUE : null; // false is the default: not in the fingerprint
    }
    o.rejectUnknown();
    return new StateSpec(backend, allowNonRestored);
  }

  interface EntryReader<T> {
    T read(String id, ObjectReader entry);
  }

  private static <T> Map<String, T> keyed(ObjectReader r, String field, EntryReader<T> entryReader) {
    Map<String, T> result = new LinkedHashMap<>();
    if (!r.has(field)) {
      r.error(field, "is required: declare at least one");
      return result;
    }
    ObjectReader all = r.object(field);
    if (all == null) {
      return result;
    }
    for (String id : all.names()) {
      ObjectReader entry = ObjectReader.of(all.field(id), Pointers.child(all.pointer(), id), r.errors());
      if (entry != null) {
        result.put(id, entryReader.read(id, entry));
      }
    }
    return result;
  }

  private static List<OperatorSpec> operators(ObjectReader r) {
    JsonNode node = r.field("operators");
    List<OperatorSpec> result = new ArrayList<>();
    if (node == null) {
      return result;
    }
    if (!node.isArray()) {
      r.error("operators", "must be a list of operators");
      return result;
    }
    for (int i = 0; i < node.size(); i++) {
      ObjectReader op = ObjectReader.of(node.get(i), Pointers.child(r.pointerOf("operators"), i), r.errors());
      result.add(op == null ? null : OperatorReader.read(op));
    }
    return result;
  }
}
