package io.tributary.cli.client;

import io.tributary.client.ApiClient;
import io.tributary.client.ApiException;
import io.tributary.client.api.CheckpointsApi;
import io.tributary.client.api.EventsApi;
import io.tributary.client.api.JobActionsApi;
import io.tributary.client.api.JobsApi;
import io.tributary.client.api.MetricsApi;
import io.tributary.client.api.PlansApi;
import io.tributary.client.api.SavepointsApi;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The generated client's APIs, bound to one server, token and project. Thread-safe: the
 * benchmark shares one among its clients.
 */
public final class ServerConnection {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private final String url;
  private final String project;
  public final JobsApi jobs;
  final JobActionsApi actions;
  final SavepointsApi savepoints;
  final EventsApi events;
  final PlansApi plans;
  final CheckpointsApi checkpoints;
  final MetricsApi metrics;
  private final HttpClient http;
  private final String token;

  public ServerConnection(String url, String token, String project) {
    this.url = url;
    this.project = project;
    this.token = token;
    HttpClient.Builder builder = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT);
    this.http = builder.build();
    ApiClient client = new ApiClient(builder, RawJobSpec.register(ApiClient.createDefaultObjectMapper()), url);
    client.setReadTimeout(READ_TIMEOUT);
    if (token != null) {
      client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
    }
    this.jobs = new JobsApi(client);
    this.actions = new JobActionsApi(client);
    this.savepoints = new SavepointsApi(client);
    this.events = new EventsApi(client);
    this.plans = new PlansApi(client);
    this.checkpoints = new CheckpointsApi(client);
    this.metrics = new MetricsApi(client);
  }

  /**
   * Opens the job's live output, a stream of server-sent events that ends only when it is closed
   * (the generated client would read it whole). A refusal escapes as {@link ApiException}, as the
   * generated client's would.
   */
  InputStream openOutput(String job, String operator) throws ApiException {
    String path = "/v1/projects/" + encode(project) + "/jobs/" + encode(job) + "/output"
        + (operator == null ? "" : "?operator=" + encode(operator));
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
        .header("Accept", "text/event-stream")
        .GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<InputStream> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new ApiException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure(ExitCodes.OTHER, "interrupted");
    }
    if (response.statusCode() == 200) {
      return response.body();
    }
    String body;
    try (InputStream in = response.body()) {
      body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
    } catch (IOException e) {
      body = "";
    }
    throw new ApiException(response.statusCode(), "HTTP " + response.statusCode(), response.headers(), body);
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  public String url() {
    return url;
  }

  public String project() {
    return project;
  }

  /** The one-line failure for a call that failed; see {@link Problems#describe}. */
  public CliFailure failure(ApiException e, String pointerPrefix) {
    return failure(e, pointerPrefix, null);
  }

  /** As {@link #failure(ApiException, String)}, errors in the SQL of {@code file} (null: none) led by its name. */
  public CliFailure failure(ApiException e, String pointerPrefix, String file) {
    return Problems.describe(e, url, pointerPrefix, token != null, file);
  }
}
