package io.tributary.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import io.micronaut.http.body.ByteBody;
import io.micronaut.http.body.CloseableAvailableByteBody;
import java.io.IOException;

/**
 * A request body is one JSON document and nothing after it: a second document, or anything but
 * white space after the first, is refused with 400 before the body is bound (the JSON reader alone
 * stops after the first value and would take {@code {...}garbage} as {@code {...}}). A body that is
 * not JSON at all is left to the reader, which reports where it breaks.
 */
@Filter("/v1/**")
final class StrictBodies implements HttpServerFilter {
  private static final JsonFactory JSON = new JsonFactory();

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(HttpRequest<?> request, ServerFilterChain chain) {
    HttpMethod m = request.getMethod();
    if (!(request instanceof ServerHttpRequest<?> server) || !(m == HttpMethod.PUT || m == HttpMethod.POST
        || m == HttpMethod.PATCH)) {
      return chain.proceed(request);
    }
    return Mono.fromFuture(server.byteBody().split(ByteBody.SplitBackpressureMode.FASTEST).buffer()).flatMapMany(body -> {
      String why;
      try (CloseableAvailableByteBody b = body) {
        why = trailing(b.toByteArray());
      }
      return why == null ? chain.proceed(request) : Mono.just(Problems.user(request, 400, why, null));
    });
  }

  /** Why {@code bytes} is more than one JSON document, or null if it is one (or its first is broken). */
  static String trailing(byte[] bytes) {
    if (bytes.length == 0) {
      return null;
    }
    try (JsonParser p = JSON.createParser(bytes)) {
      try {
        if (p.nextToken() == null) {
          return null;
        }
        p.skipChildren();
      } catch (IOException e) {
        return null; // the first document is broken: the reader reports where
      }
      String where = "line " + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr();
      try {
        if (p.nextToken() == null) {
          return null;
        }
      } catch (IOException e) {
        // not even JSON after the document
      }
      return "malformed JSON after " + where + ": the body must be one JSON document, with nothing after it";
    } catch (IOException e) {
      return null;
    }
  }
}
