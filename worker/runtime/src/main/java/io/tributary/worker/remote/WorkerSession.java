package io.tributary.worker.remote;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.tributary.protocol.ControlMessage;
import io.tributary.protocol.Failure;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control plane's end of one worker's control stream: who the worker is once it registered,
 * when it last spoke, and its requests in flight.
 *
 * <pre>
 *   CONNECTED -hello-> CHALLENGED -register(valid proof)-> REGISTERED -missed heartbeats, stream lost-> LOST
 *        \-------------------\--- bad proof, timeout ---> CLOSED              \-- stream ended -------> CLOSED
 * </pre>
 *
 * A LOST session's worker may still be alive (paused, cut off): whatever it sends from then on is
 * fenced — it is told to drop its attempts and register again — and its stream closed.
 */
final class WorkerSession {
  enum State { CONNECTED, CHALLENGED, REGISTERED, LOST, CLOSED }

  private final StreamObserver<Envelope> out;
  private final AtomicLong nextRequest = new AtomicLong(1);
  private final Map<Long, CompletableFuture<Failure>> pending = new ConcurrentHashMap<>();
  final long connectedAtNanos = System.nanoTime();
  // guarded by this
  private State state = State.CONNECTED;
  private String worker;
  private String nonce;
  private int slots;
  private String dataAddress;
  private long pid;
  private volatile long lastHeardNanos = System.nanoTime();

  WorkerSession(StreamObserver<Envelope> out) {
    this.out = out;
  }

  synchronized State state() {
    return state;
  }

  synchronized String worker() {
    return worker;
  }

  synchronized int slots() {
    return slots;
  }

  synchronized String dataAddress() {
    return dataAddress;
  }

  synchronized long pid() {
    return pid;
  }

  long lastHeardNanos() {
    return lastHeardNanos;
  }

  void heard() {
    lastHeardNanos = System.nanoTime();
  }

  /** The worker said hello: it gets a challenge. */
  synchronized void challenge(String worker, long pid) {
    this.worker = worker;
    this.pid = pid;
    this.nonce = ClusterSecrets.nonce();
    this.state = State.CHALLENGED;
    send(new Envelope.Challenge(nonce));
  }

  /** Whether {@code r} answers this session's challenge under {@code secret}. */
  synchronized boolean proves(Envelope.Register r, String secret) {
    return state == State.CHALLENGED && r.worker().equals(worker)
        && ClusterSecrets.valid(secret, nonce, r.worker(), r.proof());
  }

  synchronized void registered(Envelope.Register r, Envelope.Registered answer) {
    this.slots = r.slots();
    this.dataAddress = r.dataAddress();
    this.state = State.REGISTERED;
    send(answer);
  }

  /** Sends {@code message} and returns what the worker answers (its failure, or null when done). */
  CompletableFuture<Failure> request(ControlMessage message) {
    long id = nextRequest.getAndIncrement();
    CompletableFuture<Failure> f = new CompletableFuture<>();
    pending.put(id, f);
    if (!send(new Envelope.Request(id, message))) {
      pending.remove(id);
      f.complete(lostFailure("its control stream is closed"));
    }
    return f;
  }

  /** Sends {@code message}, which needs no answer. */
  void tell(ControlMessage message) {
    send(new Envelope.Request(0, message));
  }

  void replied(Envelope.Reply r) {
    CompletableFuture<Failure> f = pending.remove(r.id());
    if (f != null) {
      f.complete(r.failure());
    }
  }

  /** Sends {@code e}; false if the stream is closed. */
  synchronized boolean send(Envelope e) {
    if (state == State.CLOSED) {
      return false;
    }
    try {
      out.onNext(e);
      return true;
    } catch (RuntimeException ex) {
      return false; // the call was cancelled meanwhile
    }
  }

  /** The worker no longer belongs to the pool: requests in flight fail. The stream stays open for fencing. */
  void lost(String why) {
    synchronized (this) {
      if (state == State.LOST || state == State.CLOSED) {
        return;
      }
      state = State.LOST;
    }
    failPending(why);
  }

  /** Ends the stream, telling the worker {@code why}. */
  void close(String why) {
    synchronized (this) {
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
      try {
        out.onError(Status.UNAVAILABLE.withDescription(why).asRuntimeException());
      } catch (RuntimeException e) {
        // already closed by the other side
      }
    }
    failPending(why);
  }

  private void failPending(String why) {
    for (Long id : pending.keySet()) {
      CompletableFuture<Failure> f = pending.remove(id);
      if (f != null) {
        f.complete(lostFailure(why));
      }
    }
  }

  Failure lostFailure(String why) {
    return new Failure(Failure.Domain.EXTERNAL, true, "worker '" + worker() + "' (pid " + pid() + ") was lost: "
        + why);
  }

  @Override
  public synchronized String toString() {
    return "worker '" + worker + "' (pid " + pid + ", " + state + ")";
  }
}
