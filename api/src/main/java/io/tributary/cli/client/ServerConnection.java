package io.tributary.cli.client;

import io.tributary.client.ApiClient;
import io.tributary.client.ApiException;
import io.tributary.client.api.EventsApi;
import io.tributary.client.api.JobActionsApi;
import io.tributary.client.api.JobsApi;
import io.tributary.client.api.PlansApi;
import io.tributary.client.api.SavepointsApi;
import java.net.http.HttpClient;
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
  private final boolean hasToken;
  public final JobsApi jobs;
  final JobActionsApi actions;
  final SavepointsApi savepoints;
  final EventsApi events;
  final PlansApi plans;

  public ServerConnection(String url, String token, String project) {
    this.url = url;
    this.project = project;
    this.hasToken = token != null;
    HttpClient.Builder http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT);
    ApiClient client = new ApiClient(http, RawJobSpec.register(ApiClient.createDefaultObjectMapper()), url);
    client.setReadTimeout(READ_TIMEOUT);
    if (token != null) {
      client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
    }
    this.jobs = new JobsApi(client);
    this.actions = new JobActionsApi(client);
    this.savepoints = new SavepointsApi(client);
    this.events = new EventsApi(client);
    this.plans = new PlansApi(client);
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
    return Problems.describe(e, url, pointerPrefix, hasToken, file);
  }
}
