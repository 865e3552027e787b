package io.tributary.server;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Encoder;
import io.micronaut.serde.Serde;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * A job spec inside an API body, kept as the JSON tree the client sent: the scheduler's parser
 * checks it and reports every error with its JSON pointer (the contract's {@code JobSpec} schema
 * documents it; the generated server models refer to this type instead, see openapi/pom.xml).
 */
@Introspected
@Serdeable.Serializable(using = SpecDocument.Codec.class)
@Serdeable.Deserializable(using = SpecDocument.Codec.class)
public final class SpecDocument {
  private final JsonNode tree;

  public SpecDocument(JsonNode tree) {
    this.tree = tree;
  }

  /** The tree as sent (null only if the body held {@code null}). */
  public JsonNode tree() {
    return tree;
  }

  /** Reads and writes the tree unchanged. */
  @Singleton
  static final class Codec implements Serde<SpecDocument> {
    private static final Argument<JsonNode> NODE = Argument.of(JsonNode.class);

    @Override
    public SpecDocument deserialize(Decoder decoder, DecoderContext context, Argument<? super SpecDocument> type)
        throws IOException {
      return new SpecDocument(decoder.decodeNode());
    }

    @Override
    public void serialize(Encoder encoder, EncoderContext context, Argument<? extends SpecDocument> type,
        SpecDocument value) throws IOException {
      context.findSerializer(NODE).createSpecific(context, NODE).serialize(encoder, context, NODE, value.tree());
    }
  }
}
