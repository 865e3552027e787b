package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An editor points Kafka connectors at endpoints the server does not allow (a listener of this
 * test on a loopback port, the API's own port, odd spellings of loopback) and passes Kafka client
 * settings that load classes, read files or override the connector's own: every one is a 400 at
 * its pointer, no job is stored, and nothing ever connects to the listener.
 */
class ConnectorAllowListIT {
  @TempDir
  static Path dir;

  static TributaryServer server;
  static String editor;
  static ServerSocket listener;
  static final AtomicInteger CONNECTIONS = new AtomicInteger();
  static Thread acceptor;

  @BeforeAll
  static void start() throws Exception {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(() -> {
      while (!listener.isClosed()) {
        try (Socket s = listener.accept()) {
          CONNECTIONS.incrementAndGet();
        } catch (java.io.IOException e) {
          return;
        }
      }
    }, "ssrf-listener");
    acceptor.setDaemon(true);
    acceptor.start();
    // Kafka brokers of this deployment listen on 9092 only
    server = ServerTests.start(ServerTests.config(dir.resolve("data"), dir.resolve("files"))
        .withEndpoints("loopback:9092,kafka.internal:9092"));
    editor = Attacks.project(server, "team-a", "editor");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    listener.close();
    acceptor.join(10_000);
  }

  static String kafka(String bootstrap, String properties) {
    return """
        name: pull
        sources:
          s: {type: kafka, bootstrapServers: '%s', topic: t, properties: {%s}}
        sinks:
          out: {input: s, type: blackhole}
        """.formatted(bootstrap, properties);
  }

  static void refused(String spec, String pointer) throws Exception {
    Attacks.refused(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/pull", editor, Attacks.body(spec)),
        400, pointer);
    Attacks.refused(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", editor, Attacks.body(spec)),
        400, pointer);
    assertThat(Attacks.jobs(server, "team-a")).isEmpty();
  }

  @Test
  void endpointsOutsideTheAllowListAreRefusedAndNeverContacted() throws Exception {
    int port = listener.getLocalPort();
    for (String bootstrap : List.of("127.0.0.1:" + port, "localhost:" + port, "127.1:" + port, "[::1]:" + port,
        "0.0.0.0:" + port, "localhost:22", "localhost:" + server.port(), "127.0.0.1:9092,127.0.0.1:" + port,
        "evil.example:9092", "kafka.internal.evil.example:9092", "no-port")) {
      refused(kafka(bootstrap, ""), "/spec/sources/s/bootstrapServers");
    }
    String sink = """
        name: pull
        sources:
          s: {type: datagen, count: 10}
        sinks:
          out: {input: s, type: kafka, bootstrapServers: '127.0.0.1:%d', topic: t}
        """.formatted(port);
    refused(sink, "/spec/sinks/out/bootstrapServers");
    assertThat(CONNECTIONS.get()).as("connections to the listener").isZero();
  }

  @Test
  void theServersOwnPortIsRefusedEvenWhenLoopbackIsAllowed() throws Exception {
    try (TributaryServer open = ServerTests.start(ServerTests.config(dir.resolve("data-open"), dir.resolve("files-open"))
        .withEndpoints("loopback:*"))) {
      String spec = kafka("localhost:" + open.port(), "");
      Attacks.refused(ServerTests.send(open, "POST", "/v1/projects/default/plans", ServerTests.ADMIN, Attacks.body(spec)),
          400, "/spec/sources/s/bootstrapServers");
      spec = kafka("localhost:" + listener.getLocalPort(), "");
      assertThat(ServerTests.send(open, "POST", "/v1/projects/default/plans", ServerTests.ADMIN, Attacks.body(spec))
          .statusCode()).as("an allowed endpoint").isEqualTo(200);
    }
  }

  @Test
  void clientSettingsOffTheAllowListAreRefusedNamingTheKey() throws Exception {
    String[][] settings = {
        {"sasl.jaas.config", "'com.sun.security.auth.module.JndiLoginModule required user.provider.url=\"ldap://evil/x\";'"},
        {"sasl.login.callback.handler.class", "com.evil.Handler"},
        {"interceptor.classes", "com.evil.Interceptor"},
        {"metric.reporters", "org.apache.kafka.common.metrics.JmxReporter"},
        {"ssl.truststore.location", "/etc/shadow"},
        {"ssl.keystore.location", "/etc/shadow"},
        {"bootstrap.servers", "'127.0.0.1:" + listener.getLocalPort() + "'"},
        {"key.deserializer", "com.evil.Deserializer"},
        {"group.id", "someone-elses"},
        {"max.poll.records", "100000000"}};
    for (String[] s : settings) {
      refused(kafka("localhost:9092", "'" + s[0] + "': " + s[1]), "/spec/sources/s/properties/" + s[0]);
    }
    String sink = """
        name: pull
        sources:
          s: {type: datagen, count: 10}
        sinks:
          out: {input: s, type: kafka, bootstrapServers: 'localhost:9092', topic: t,
                properties: {'transactional.id': stolen, 'buffer.memory': 99999999999}}
        """;
    Attacks.refused(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", editor, Attacks.body(sink)), 400,
        "/spec/sinks/out/properties/transactional.id");
    String allowed = kafka("localhost:9092", "'max.poll.records': 500, 'isolation.level': read_committed, "
        + "'sasl.mechanism': PLAIN, 'security.protocol': SASL_SSL, 'sasl.jaas.config': "
        + "'org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";'");
    assertThat(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", editor, Attacks.body(allowed))
        .statusCode()).isEqualTo(200);
    assertThat(CONNECTIONS.get()).isZero();
  }
}
