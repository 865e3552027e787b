package io.tributary.cli.client;

import java.net.URI;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * The options every command that talks to a server takes: where the server is, the token, the
 * project and the output format. The server and token default to the environment variables
 * {@code TRIBUTARY_SERVER} and {@code TRIBUTARY_TOKEN}.
 */
public final class ServerOptions {
  static final String DEFAULT_SERVER = "http://localhost:8080";

  @Option(names = "--server", paramLabel = "URL",
      description = "the Tributary server (default: $TRIBUTARY_SERVER, else " + DEFAULT_SERVER + ")")
  String server;

  @Option(names = "--token", paramLabel = "TOKEN", description = "the API token (default: $TRIBUTARY_TOKEN)")
  String token;

  @Option(names = "--project", paramLabel = "PROJECT", defaultValue = "default",
      description = "the project (default: ${DEFAULT-VALUE})")
  String project = "default";

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table", converter = FormatConverter.class,
      description = "table, json or yaml (json and yaml print the API resource; default: table)")
  Format output = Format.TABLE;

  /** Options naming {@code url} and {@code token} (either null: the environment's, as on the command line). */
  public static ServerOptions of(String url, String token) {
    ServerOptions o = new ServerOptions();
    o.server = url;
    o.token = token;
    return o;
  }

  /** How results are printed. */
  public enum Format { TABLE, JSON, YAML }

  /** Whether a server was named, with {@code --server} or {@code TRIBUTARY_SERVER}. */
  public boolean serverNamed() {
    return server != null || env("TRIBUTARY_SERVER") != null;
  }

  /** The server's base URL, without a trailing slash. */
  public String url() {
    String url = server != null ? server : env("TRIBUTARY_SERVER") != null ? env("TRIBUTARY_SERVER") : DEFAULT_SERVER;
    url = url.strip();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
      throw new CliFailure(ExitCodes.INVALID,
          "the server must be an http(s) URL such as " + DEFAULT_SERVER + ", not '" + url + "'");
    }
    return url;
  }

  /** The token, or null when none was given. */
  public String token() {
    String t = token != null ? token : env("TRIBUTARY_TOKEN");
    return t == null || t.isBlank() ? null : t.strip();
  }

  public String project() {
    return project;
  }

  public Format output() {
    return output;
  }

  /** A connection to the server these options name. */
  public ServerConnection connect() {
    return new ServerConnection(url(), token(), project);
  }

  private static String env(String name) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? null : v;
  }

  static final class FormatConverter implements ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      try {
        return Format.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("expected table, json or yaml, not '" + value + "'");
      }
    }
  }
}
