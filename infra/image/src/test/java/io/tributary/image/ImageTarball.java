package io.tributary.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An image tarball as Jib's {@code buildTar} writes it ({@code docker load} format: {@code
 * manifest.json}, the config JSON and one gzipped tar per layer), opened into a directory.
 *
 * @param dir where the tarball's files are
 * @param manifest the one entry of {@code manifest.json}
 * @param config the image's config JSON
 */
record ImageTarball(Path dir, JsonNode manifest, JsonNode config) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Opens {@code tarball} into {@code dir}, which must not exist yet. */
  static ImageTarball open(Path tarball, Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    tar(dir, "-xf", tarball.toString(), "-C", dir.toString());
    JsonNode manifests = JSON.readTree(dir.resolve("manifest.json").toFile());
    if (manifests.size() != 1) {
      throw new IllegalStateException("manifest.json lists " + manifests.size() + " images, not one");
    }
    JsonNode manifest = manifests.get(0);
    return new ImageTarball(dir, manifest, JSON.readTree(dir.resolve(manifest.get("Config").asText()).toFile()));
  }

  /** The layers' files, lowest first. */
  List<Path> layers() {
    List<Path> out = new ArrayList<>();
    manifest.get("Layers").forEach(l -> out.add(dir.resolve(l.asText())));
    return out;
  }

  /** Unpacks the layers in order into {@code root}, as a container runtime lays out the file system. */
  void unpack(Path root) throws IOException, InterruptedException {
    Files.createDirectories(root);
    for (Path layer : layers()) {
      // modes and (as root) owners as the layer says; Jib's pax headers carry a time GNU tar ignores
      tar(root, "--warning=no-unknown-keyword", "-xzpf", layer.toString(), "-C", root.toString());
    }
  }

  private static void tar(Path dir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tar"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out);
    }
  }
}
