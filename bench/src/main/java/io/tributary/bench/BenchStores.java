package io.tributary.bench;

import io.tributary.boot.ServerConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

/**
 * S3 and DynamoDB for a benchmark, as the cloud tests run them: S3Proxy in this process over a
 * directory (so gigabytes of state do not sit on the heap) and dynalite as its own node process
 * (installed with {@code npm ci} from {@code scheduler/src/test/dynalite} if missing).
 */
final class BenchStores implements AutoCloseable {
  static final String ACCESS_KEY = "tributary-bench-access";
  static final String SECRET_KEY = "tributary-bench-secret";
  private static final String BUCKET = "tributary-bench";

  private final S3Proxy s3;
  private final Process dynalite;
  private final int dynamoPort;

  private BenchStores(S3Proxy s3, Process dynalite, int dynamoPort) {
    this.s3 = s3;
    this.dynalite = dynalite;
    this.dynamoPort = dynamoPort;
  }

  /** Starts both; {@code dynaliteDir} holds dynalite's package.json and lock file. */
  static BenchStores start(Path objects, Path dynaliteDir) throws Exception {
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET_KEY);
    Files.createDirectories(objects.resolve(BUCKET));
    S3Proxy proxy = S3Proxy.builder().blobStore(new FilesystemNio2BlobStore(objects.toString()))
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
    proxy.start();
    try {
      if (!Files.isRegularFile(dynaliteDir.resolve("node_modules/dynalite/cli.js"))) {
        Process npm = new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund")).directory(dynaliteDir.toFile())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
          throw new IllegalStateException("npm ci in " + dynaliteDir + " failed");
        }
      }
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      Process node = new ProcessBuilder("node", "node_modules/dynalite/cli.js", "--port", Integer.toString(port),
          "--host", "127.0.0.1", "--createTableMs", "0").directory(dynaliteDir.toFile()).redirectErrorStream(true)
          .start();
      BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture.runAsync(() -> {
        try {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.contains("listening at")) {
              return;
            }
          }
          throw new IllegalStateException("dynalite exited before listening");
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).get(30, TimeUnit.SECONDS);
      Thread drain = new Thread(() -> {
        try {
          while (out.readLine() != null) {
            // nothing to keep
          }
        } catch (IOException e) {
          // gone
        }
      }, "dynalite-output");
      drain.setDaemon(true);
      drain.start();
      return new BenchStores(proxy, node, port);
    } catch (Exception e) {
      proxy.stop();
      throw e;
    }
  }

  /** A server configuration on these stores: state under {@code s3://tributary-bench/<prefix>}, metadata in {@code table}. */
  ServerConfiguration configuration(String prefix, String table) {
    return ServerConfiguration.load(null, Map.of(
        "TRIBUTARY_OBJECT_STORE", "s3://" + BUCKET + "/" + prefix,
        "TRIBUTARY_S3_ENDPOINT", "http://127.0.0.1:" + s3.getPort(),
        "TRIBUTARY_S3_PATH_STYLE", "true",
        "TRIBUTARY_S3_REGION", "us-east-1",
        "TRIBUTARY_METADATA_DYNAMODB_TABLE", table,
        "TRIBUTARY_METADATA_DYNAMODB_ENDPOINT", "http://127.0.0.1:" + dynamoPort,
        "TRIBUTARY_METADATA_DYNAMODB_REGION", "us-east-1",
        "TRIBUTARY_METADATA_DYNAMODB_CREATE_TABLE", "true"));
  }

  /** JVM options that give worker processes this benchmark's S3 credentials. */
  static String workerCredentials() {
    return "-Daws.accessKeyId=" + ACCESS_KEY + " -Daws.secretAccessKey=" + SECRET_KEY;
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
