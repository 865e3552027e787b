package io.tributary.connectors.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Kafka (KRaft, combined broker and controller) in its own JVM process, for
 * integration tests. It listens on free loopback ports, keeps its logs in a temp directory
 * (formatted with Kafka's StorageTool first) and is killed, with the directory deleted, by {@link
 * #close()}. {@link #start()} returns once an AdminClient gets an answer from it.
 *
 * <pre>{@code
 * try (KafkaBroker kafka = KafkaBroker.start()) {
 *   kafka.createTopic("bids", 3);
 *   ... kafka.bootstrapServers() ...
 * }
 * }</pre>
 */
public final class KafkaBroker implements AutoCloseable {
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path dir;
  private final String bootstrapServers;

  private KafkaBroker(Process process, Path dir, String bootstrapServers) {
    this.process = process;
    this.dir = dir;
    this.bootstrapServers = bootstrapServers;
  }

  /** Starts a broker with the feature levels of its version and waits until it answers. */
  public static KafkaBroker start() throws IOException {
    return start(Map.of());
  }

  /**
   * Starts a broker whose storage is formatted with {@code features} (for example {@code
   * transaction.version} 1, the transaction protocol before KIP-890) and waits until it answers.
   */
  public static KafkaBroker start(Map<String, Short> features) throws IOException {
    Path dir = Files.createTempDirectory("tributary-kafka");
    int brokerPort = freePort();
    int controllerPort = freePort();
    Path config = writeConfig(dir, brokerPort, controllerPort);
    format(config, features);
    Process process = new ProcessBuilder(javaBinary(), "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), "kafka.Kafka", config.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("broker.log").toFile())
        .start();
    KafkaBroker broker = new KafkaBroker(process, dir, "127.0.0.1:" + brokerPort);
    try {
      broker.awaitReady();
    } catch (RuntimeException | Error e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  /** {@code host:port} for clients. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** An admin client of this broker; the caller closes it. */
  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /**
   * Creates a topic with replication factor 1 and waits until every partition has a leader: a
   * producer whose first batch to a partition meets NOT_LEADER_OR_FOLLOWER may, idempotent, retry
   * with OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout.
   */
  public void createTopic(String name, int partitions) {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!allLed(admin, name)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("topic " + name + " has partitions without a leader after 30 s");
        }
        Thread.onSpinWait();
      }
      // The broker's metadata names the leaders a moment before the partitions serve as leaders; a
      // producer writing in that moment can have its first request refused and a later one taken,
      // then retries the first forever with an out-of-order sequence (the broker's KAFKA-15591).
      // Listing offsets needs a serving leader, and the admin client retries until there is one.
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(name, p), OffsetSpec.latest());
      }
      admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean allLed(Admin admin, String topic) throws InterruptedException {
    try {
      return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
          .partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      return false; // not known to the broker's metadata yet
    }
  }

  /** Kills the broker process and deletes its files. */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    deleteRecursively(dir);
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        if (!process.isAlive()) {
          throw new IllegalStateException("Kafka exited with " + process.exitValue() + ":\n" + logTail());
        }
        try {
          admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          return;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("Kafka not ready after " + STARTUP_TIMEOUT + ":\n" + logTail(), e);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path writeConfig(Path dir, int brokerPort, int controllerPort) throws IOException {
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", "1");
    p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("log.dirs", dir.resolve("data").toString());
    p.setProperty("num.partitions", "1");
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", "1");
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("transaction.state.log.num.partitions", "1");
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    p.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
    p.setProperty("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
    Path config = dir.resolve("server.properties");
    try (var out = Files.newBufferedWriter(config)) {
      p.store(out, "Tributary test broker");
    }
    return config;
  }

  private static void format(Path config, Map<String, Short> features) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
    features.forEach((name, level) -> args.addAll(List.of("--feature", name + "=" + level)));
    int code = kafka.tools.StorageTool.execute(args.toArray(String[]::new),
        new PrintStream(output, true, StandardCharsets.UTF_8));
    if (code != 0) {
      throw new IllegalStateException("formatting Kafka storage failed: " + output.toString(StandardCharsets.UTF_8));
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("broker.log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
