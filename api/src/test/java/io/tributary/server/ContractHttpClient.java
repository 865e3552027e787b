package io.tributary.server;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * An {@link HttpClient} that hands every response to {@link Contract#check} before the caller's
 * body handler sees it: the generated API client's requests are checked against the contract
 * like raw ones. Responses are read whole first (the server's responses are small; the event
 * stream of {@code /output} is not sent through this client).
 */
final class ContractHttpClient extends HttpClient {
  private final HttpClient delegate;

  ContractHttpClient(HttpClient delegate) {
    this.delegate = delegate;
  }

  /** A builder of the generated client's HTTP client whose clients check the contract. */
  static HttpClient.Builder builder() {
    return new Builder(HttpClient.newBuilder());
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    HttpResponse<byte[]> raw = delegate.send(request, HttpResponse.BodyHandlers.ofByteArray());
    Contract.check(request.method(), request.uri(), raw.statusCode(),
        raw.headers().firstValue("content-type").orElse(null), new String(raw.body(), java.nio.charset.StandardCharsets.UTF_8));
    return new Rebodied<>(raw, body(raw, handler));
  }

  private static <T> T body(HttpResponse<byte[]> raw, HttpResponse.BodyHandler<T> handler) throws IOException {
    HttpResponse.BodySubscriber<T> sub = handler.apply(new HttpResponse.ResponseInfo() {
      @Override
      public int statusCode() {
        return raw.statusCode();
      }

      @Override
      public HttpHeaders headers() {
        return raw.headers();
      }

      @Override
      public Version version() {
        return raw.version();
      }
    });
    sub.onSubscribe(new Flow.Subscription() {
      @Override
      public void request(long n) {}

      @Override
      public void cancel() {}
    });
    sub.onNext(List.of(ByteBuffer.wrap(raw.body())));
    sub.onComplete();
    try {
      return sub.getBody().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException(e.getCause());
    }
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return send(request, handler);
      } catch (IOException | InterruptedException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> push) {
    return sendAsync(request, handler);
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<Executor> executor() {
    return delegate.executor();
  }

  /** A response with the body the caller's handler made of the bytes. */
  private record Rebodied<T>(HttpResponse<byte[]> raw, T body) implements HttpResponse<T> {
    @Override
    public int statusCode() {
      return raw.statusCode();
    }

    @Override
    public HttpRequest request() {
      return raw.request();
    }

    @Override
    public Optional<HttpResponse<T>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public HttpHeaders headers() {
      return raw.headers();
    }

    @Override
    public Optional<SSLSession> sslSession() {
      return raw.sslSession();
    }

    @Override
    public URI uri() {
      return raw.uri();
    }

    @Override
    public Version version() {
      return raw.version();
    }
  }

  /** Builds delegating clients. */
  private record Builder(HttpClient.Builder b) implements HttpClient.Builder {
    @Override
    public HttpClient.Builder cookieHandler(CookieHandler h) {
      b.cookieHandler(h);
      return this;
    }

    @Override
    public HttpClient.Builder connectTimeout(Duration d) {
      b.connectTimeout(d);
      return this;
    }

    @Override
    public HttpClient.Builder sslContext(SSLContext c) {
      b.sslContext(c);
      return this;
    }

    @Override
    public HttpClient.Builder sslParameters(SSLParameters p) {
      b.sslParameters(p);
      return this;
    }

    @Override
    public HttpClient.Builder executor(Executor e) {
      b.executor(e);
      return this;
    }

    @Override
    public HttpClient.Builder followRedirects(Redirect r) {
      b.followRedirects(r);
      return this;
    }

    @Override
    public HttpClient.Builder version(Version v) {
      b.version(v);
      return this;
    }

    @Override
    public HttpClient.Builder priority(int p) {
      b.priority(p);
      return this;
    }

    @Override
    public HttpClient.Builder proxy(ProxySelector p) {
      b.proxy(p);
      return this;
    }

    @Override
    public HttpClient.Builder authenticator(Authenticator a) {
      b.authenticator(a);
      return this;
    }

    @Override
    public HttpClient build() {
      return new ContractHttpClient(b.build());
    }
  }
}
