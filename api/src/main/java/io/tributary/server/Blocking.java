package io.tributary.server;

import java.util.concurrent.Callable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The control plane's calls block (metadata writes are fsynced; stop and rescale wait for
 * savepoints): they run on Reactor's bounded elastic threads, never on the event loop. Access
 * checks happen before, on the request's thread.
 */
final class Blocking {
  private Blocking() {}

  static <T> Mono<T> call(Callable<T> work) {
    return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
  }

  static Mono<Void> run(Runnable work) {
    return Mono.<Void>fromRunnable(work).subscribeOn(Schedulers.boundedElastic());
  }
}
