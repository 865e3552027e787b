package io.tributary.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** What the image tarball holds: its config, the application, the console and the Java runtime. */
class ImageIT {
  private static final String VERSION = System.getProperty("project.version", "0.1.0-SNAPSHOT");

  @Test
  void configRunsTheCliAsANonRootUserWithThePortsTheChartUses() throws Exception {
    ImageTarball image = UnpackedImage.tarball();
    JsonNode config = image.config().get("config");
    assertThat(image.manifest().get("RepoTags").get(0).asText()).isEqualTo("tributary:" + VERSION);
    assertThat(texts(config.get("Entrypoint"))).containsExactly("/opt/tributary/bin/tributary");
    assertThat(config.has("Cmd") && !config.get("Cmd").isNull()).as("no default arguments: server or worker").isFalse();
    String user = config.get("User").asText();
    assertThat(user).matches("[0-9]+:[0-9]+");
    assertThat(Integer.parseInt(user.split(":")[0])).as("uid").isNotZero();
    assertThat(Files.readAllLines(UnpackedImage.file("/etc/passwd")))
        .anyMatch(l -> l.startsWith("tributary:x:" + user + ":") && l.contains(":/var/lib/tributary:"));
    List<String> ports = new ArrayList<>();
    config.get("ExposedPorts").fieldNames().forEachRemaining(ports::add);
    assertThat(ports).containsExactlyInAnyOrder("8080/tcp", "7077/tcp", "7078/tcp");
    assertThat(config.get("WorkingDir").asText()).isEqualTo("/var/lib/tributary");
    assertThat(texts(config.get("Env"))).contains("JAVA_HOME=/opt/java", "TRIBUTARY_DATA_DIR=/var/lib/tributary");
    assertThat(image.config().get("rootfs").get("diff_ids")).hasSameSizeAs(image.layers());
  }

  @Test
  void entrypointRunsTheCliOnTheImagesJavaWithTheClasspathJibWrote() throws Exception {
    Path entrypoint = UnpackedImage.file("/opt/tributary/bin/tributary");
    assertThat(Files.getPosixFilePermissions(entrypoint)).contains(PosixFilePermission.OTHERS_EXECUTE);
    assertThat(Files.readString(entrypoint)).startsWith("#!/bin/sh\n")
        .contains("exec /opt/java/bin/java ${TRIBUTARY_JAVA_OPTS:-", "-cp @/app/jib-classpath-file",
            "io.tributary.cli.Main \"$@\"");
    assertThat(Files.getPosixFilePermissions(UnpackedImage.file("/bin/sh")))
        .contains(PosixFilePermission.OTHERS_EXECUTE);
    for (String jar : classpath()) {
      assertThat(UnpackedImage.file(jar)).as(jar).isRegularFile();
    }
  }

  /** The jars are those bin/tributary runs: the API jar and api/target/classpath.txt's. */
  @Test
  void classpathIsTheApiJarWithTheJarsBinTributaryRuns() throws Exception {
    List<String> names = classpath().stream().map(j -> j.substring(j.lastIndexOf('/') + 1)).toList();
    assertThat(names.get(0)).isEqualTo("tributary-api-" + VERSION + ".jar");
    Path api = Path.of(System.getProperty("api.classpath", "../../api/target/classpath.txt"));
    assumeTrue(Files.isRegularFile(api), api + " is missing: build api in this checkout to compare");
    List<String> binTributary = new ArrayList<>(List.of(names.get(0)));
    for (String jar : Files.readString(api).trim().split(File.pathSeparator)) {
      binTributary.add(Path.of(jar).getFileName().toString());
    }
    assertThat(names).containsExactlyInAnyOrderElementsOf(binTributary);
  }

  @Test
  void consoleIsInsideTheImage() throws Exception {
    Path console = UnpackedImage.file("/app/libs/tributary-console-ui-" + VERSION + ".jar");
    try (ZipFile zip = new ZipFile(console.toFile())) {
      assertThat(zip.getEntry("META-INF/tributary-console/index.html")).isNotNull();
      assertThat(zip.stream().map(e -> e.getName()))
          .anyMatch(n -> n.startsWith("META-INF/tributary-console/assets/") && n.endsWith(".js"));
    }
  }

  /** jdeps of the image's jars names no module the runtime lacks (jlink's list is in the pom). */
  @Test
  void javaRuntimeHasEveryModuleTheJarsNeed() throws Exception {
    List<String> jars = classpath().stream().map(j -> UnpackedImage.file(j).toString()).toList();
    StringWriter out = new StringWriter();
    int status = ToolProvider.findFirst("jdeps").orElseThrow().run(new PrintWriter(out), new PrintWriter(out),
        "--print-module-deps", "--ignore-missing-deps", "--multi-release", "17", "-q",
        "--class-path", String.join(File.pathSeparator, jars.subList(1, jars.size())), jars.get(0));
    assertThat(status).as(out.toString()).isZero();
    String release = Files.readString(UnpackedImage.file("/opt/java/release"));
    Set<String> modules = Set.of(release.replaceAll("(?s).*MODULES=\"([^\"]*)\".*", "$1").split(" "));
    assertThat(modules).containsAll(Arrays.asList(out.toString().trim().split(",")))
        .contains("jdk.crypto.ec", "jdk.zipfs");
    assertThat(Files.getPosixFilePermissions(UnpackedImage.file("/opt/java/bin/java")))
        .contains(PosixFilePermission.OTHERS_EXECUTE);
    assertThat(Files.getPosixFilePermissions(UnpackedImage.file("/opt/java/lib/jspawnhelper")))
        .as("ProcessBuilder's helper").contains(PosixFilePermission.OTHERS_EXECUTE);
  }

  /** S3 and DynamoDB speak TLS with Amazon's certificates: the runtime must trust them. */
  @Test
  void javaRuntimeTrustsAmazonsRootCertificates() throws Exception {
    KeyStore cacerts = KeyStore.getInstance(UnpackedImage.file("/opt/java/lib/security/cacerts").toFile(),
        "changeit".toCharArray());
    List<String> subjects = new ArrayList<>();
    for (String alias : Collections.list(cacerts.aliases())) {
      if (cacerts.getCertificate(alias) instanceof X509Certificate c) {
        subjects.add(c.getSubjectX500Principal().getName());
      }
    }
    assertThat(subjects).hasSizeGreaterThan(50).anyMatch(s -> s.contains("CN=Amazon Root CA 1"));
  }

  @Test
  void directoriesTheUserWritesAreWritableByIt() throws Exception {
    for (String dir : List.of("/tmp", "/var/lib/tributary", "/var/cache/tributary")) {
      assertThat(UnpackedImage.file(dir)).isDirectory();
      assertThat(Files.getPosixFilePermissions(UnpackedImage.file(dir))).as(dir)
          .contains(PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
    }
    try (Stream<Path> files = Files.walk(UnpackedImage.file("/opt"))) {
      assertThat(files.filter(ImageIT::writableByOthers)).as("no program or library the user may change").isEmpty();
    }
  }

  private static boolean writableByOthers(Path p) {
    try {
      return Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_WRITE);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The image's classpath, from Jib's /app/jib-classpath-file. */
  private static List<String> classpath() throws Exception {
    String cp = Files.readString(UnpackedImage.file("/app/jib-classpath-file")).trim();
    return Arrays.stream(cp.split(":")).filter(e -> e.startsWith("/app/libs/")).toList();
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
