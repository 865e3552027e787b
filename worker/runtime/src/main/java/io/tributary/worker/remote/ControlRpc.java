package io.tributary.worker.remote;

import io.grpc.MethodDescriptor;
import io.tributary.protocol.ProtocolCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The one RPC of the control protocol: {@code tributary.WorkerControl/Connect}, a bidirectional
 * stream of {@link Envelope}s (worker to control plane and back), each written as JSON. gRPC carries
 * it (HTTP/2, keepalives, flow control); no code is generated: the messages are the protocol's own
 * values.
 */
final class ControlRpc {
  static final String SERVICE = "tributary.WorkerControl";

  static final MethodDescriptor.Marshaller<Envelope> ENVELOPES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(Envelope value) {
      return new ByteArrayInputStream(ProtocolCodec.encode(value));
    }

    @Override
    public Envelope parse(InputStream stream) {
      try (stream) {
        return ProtocolCodec.decode(stream.readAllBytes(), Envelope.class);
      } catch (IOException e) {
        throw new UncheckedIOException("not a control message: " + e.getMessage(), e);
      }
    }
  };

  static final MethodDescriptor<Envelope, Envelope> CONNECT = MethodDescriptor.<Envelope, Envelope>newBuilder()
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Connect"))
      .setRequestMarshaller(ENVELOPES)
      .setResponseMarshaller(ENVELOPES)
      .build();

  /** Largest control message: a deployment of a big job with its restore handles. */
  static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  private ControlRpc() {}
}
