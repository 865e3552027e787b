package io.tributary.cli.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.tributary.client.model.JobSpec;
import java.io.IOException;

/**
 * A job spec sent as the user wrote it. The generated {@link JobSpec} model would drop fields it
 * does not know (a misspelt property must reach the server, which refuses it with its pointer) and
 * fail on wrong types before the server could list every error; this one serializes as the
 * document itself wherever the API takes a {@code JobSpec}, with a mapper {@link #register}ed.
 */
public final class RawJobSpec extends JobSpec {
  private final ObjectNode document;

  public RawJobSpec(ObjectNode document) {
    this.document = document;
    JsonNode name = document.get("name");
    if (name != null && name.isTextual()) {
      setName(name.asText());
    }
  }

  ObjectNode document() {
    return document;
  }

  /** Makes {@code mapper} write a RawJobSpec as its document; returns it. */
  static ObjectMapper register(ObjectMapper mapper) {
    return mapper.registerModule(new SimpleModule("tributary-raw-job-spec")
        .addSerializer(RawJobSpec.class, new Writer()));
  }

  static final class Writer extends StdSerializer<RawJobSpec> {
    Writer() {
      super(RawJobSpec.class);
    }

    @Override
    public void serialize(RawJobSpec value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeTree(value.document);
    }
  }
}
