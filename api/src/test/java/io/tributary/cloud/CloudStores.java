package io.tributary.cloud;

import io.tributary.boot.ServerConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * The cloud stores of the cloud-server tests, real components on free local ports: S3Proxy (in this
 * JVM, in memory) for S3 and dynalite (npm, its own node process, in memory; installed with {@code
 * npm ci} from the scheduler module's pinned lock file if missing) for DynamoDB. Servers reach them
 * with the static credentials of {@link #env()}.
 */
final class CloudStores implements AutoCloseable {
  static final String ACCESS_KEY = "tributary-cloud-access";
  static final String SECRET_KEY = "tributary-cloud-secret";
  static final String BUCKET = "tributary-state";
  static final String TOKEN_KEY = "Y2xvdWQtdGVzdHMtdG9rZW4ta2V5LTMyLWJ5dGVzLWxvbmchIQ==";
  private static final Path DYNALITE = Path.of("..", "scheduler", "src", "test", "dynalite").toAbsolutePath().normalize();

  private final S3Proxy s3;
  private final Process dynalite;
  private final int dynamoPort;

  private CloudStores(S3Proxy s3, Process dynalite, int dynamoPort) {
    this.s3 = s3;
    this.dynalite = dynalite;
    this.dynamoPort = dynamoPort;
  }

  static CloudStores start() throws Exception {
    // for the clients in this JVM (servers in other processes get them through env())
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET_KEY);
    S3Proxy proxy = S3Proxy.builder().blobStore(new TransientNio2BlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
    proxy.start();
    Process node = null;
    try {
      installDynalite();
      int port = freePort();
      node = new ProcessBuilder("node", "node_modules/dynalite/cli.js", "--port", Integer.toString(port),
          "--host", "127.0.0.1", "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
          .directory(DYNALITE.toFile()).redirectErrorStream(true).start();
      awaitListening(node);
      CloudStores stores = new CloudStores(proxy, node, port);
      try (S3Client client = stores.s3Client()) {
        client.createBucket(b -> b.bucket(BUCKET));
      }
      return stores;
    } catch (Exception e) {
      if (node != null) {
        node.destroyForcibly();
      }
      proxy.stop();
      throw e;
    }
  }

  URI s3Endpoint() {
    return URI.create("http://127.0.0.1:" + s3.getPort());
  }

  String dynamoEndpoint() {
    return "http://127.0.0.1:" + dynamoPort;
  }

  S3Client s3Client() {
    return S3Client.builder().endpointOverride(s3Endpoint()).region(Region.US_EAST_1)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  /** The YAML configuration file of a server on these stores, with {@code table} as its DynamoDB table. */
  String configFile(String prefix, String table, String leaseTime) {
    return """
        tributary:
          object-store: s3://%s/%s
          s3:
            endpoint: %s
            path-style: true
            region: us-east-1
          metadata:
            store: dynamodb
            dynamodb:
              table: %s
              endpoint: %s
              region: us-east-1
              create-table: true
          leader:
            lease-time: %s
        """.formatted(BUCKET, prefix, s3Endpoint(), table, dynamoEndpoint(), leaseTime);
  }

  /** What a server process on these stores needs in its environment: the credentials and the token key. */
  static Map<String, String> env() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
    env.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
    env.put("AWS_REGION", "us-east-1");
    env.put("TRIBUTARY_TOKEN_KEY", TOKEN_KEY);
    return env;
  }

  /** The configuration of a server in this JVM on these stores (credentials from system properties). */
  ServerConfiguration configuration(String prefix, String table, String leaseTime) throws IOException {
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET_KEY);
    Path file = Files.createTempFile("tributary-cloud", ".yaml");
    Files.writeString(file, configFile(prefix, table, leaseTime) + "  token-key: " + TOKEN_KEY + "\n");
    return ServerConfiguration.load(file, Map.of());
  }

  private static void installDynalite() throws Exception {
    if (Files.isRegularFile(DYNALITE.resolve("node_modules/dynalite/cli.js"))) {
      return;
    }
    Path log = Path.of("target", "npm-ci-dynalite.log").toAbsolutePath();
    Files.createDirectories(log.getParent());
    Process npm = new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund")).directory(DYNALITE.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
      npm.destroyForcibly();
      throw new IllegalStateException("npm ci in " + DYNALITE + " failed:\n" + Files.readString(log));
    }
  }

  private static void awaitListening(Process node) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Void> ready = CompletableFuture.runAsync(() -> {
      try {
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          seen.append(line).append('\n');
          if (line.contains("listening at")) {
            return;
          }
        }
        throw new IllegalStateException("dynalite exited before listening:\n" + seen);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    ready.get(30, TimeUnit.SECONDS);
    Thread drain = new Thread(() -> {
      try {
        while (out.readLine() != null) {
          // dynalite logs nothing we need
        }
      } catch (IOException e) {
        // gone
      }
    }, "dynalite-output");
    drain.setDaemon(true);
    drain.start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws Exception {
    dynalite.destroy();
    if (!dynalite.waitFor(10, TimeUnit.SECONDS)) {
      dynalite.destroyForcibly();
    }
    s3.stop();
  }
}
