package io.tributary.worker.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.exchange.OutboundChannel;
import io.tributary.worker.task.Transport;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A worker's data plane over TCP: a {@link DataServer} for the channels it receives and a
 * {@link DataClient} for those it sends, on one small event loop group.
 */
public final class NetTransport implements Transport, AutoCloseable {
  /** Credits a receiver grants each remote channel. */
  public static final int EXCLUSIVE_CREDITS = 2;
  /** Extra credits a receiving gate lends to channels with a backlog. */
  public static final int FLOATING_CREDITS = 8;

  private final EventLoopGroup group;
  private final DataServer server;
  private final DataClient client;
  private final String advertisedHost;
  /** Per attempt: the floating credits of each receiving gate. */
  private final Map<AttemptId, Map<InputGate, FloatingCredits>> floating = new ConcurrentHashMap<>();

  /**
   * @param worker this worker's id
   * @param bindHost the address to listen on ({@code 127.0.0.1} unless told otherwise)
   * @param port the port to listen on, 0 for any free one
   * @param advertisedHost the host other workers reach this one at
   * @param tokens checks the data tokens senders present
   */
  public NetTransport(String worker, String bindHost, int port, String advertisedHost, DataTokens tokens) {
    this.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    try {
      this.server = new DataServer(group, bindHost, port, tokens);
    } catch (InterruptedException e) {
      group.shutdownGracefully();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding the data port", e);
    } catch (RuntimeException e) {
      group.shutdownGracefully();
      throw new IllegalStateException("cannot listen for data connections on " + bindHost + ":" + port + ": "
          + e.getMessage(), e);
    }
    this.client = new DataClient(group, worker);
    this.advertisedHost = advertisedHost;
  }

  /** Where other workers send this one data: {@code host:port}. */
  public String address() {
    return advertisedHost + ":" + server.port();
  }

  @Override
  public OutboundChannel outbound(AttemptDeployment d, long id, TaskDeployment receiver) {
    AttemptDeployment.Network net = network(d);
    String address = net.dataAddresses().get(receiver.worker());
    if (address == null) {
      throw new IllegalArgumentException("the deployment of " + d.attempt() + " names no data address for worker '"
          + receiver.worker() + "'");
    }
    return client.connection(d.attempt(), net.dataToken(), receiver.worker(), address).open(id);
  }

  @Override
  public InboundChannel inbound(AttemptDeployment d, long id, InputGate gate, int index) {
    FloatingCredits pool;
    Map<InputGate, FloatingCredits> pools = floating.computeIfAbsent(d.attempt(), a -> new IdentityHashMap<>());
    synchronized (pools) {
      pool = pools.computeIfAbsent(gate, g -> new FloatingCredits(FLOATING_CREDITS));
    }
    return server.attempt(d.attempt()).bind(id, gate, index, EXCLUSIVE_CREDITS, pool);
  }

  private static AttemptDeployment.Network network(AttemptDeployment d) {
    if (d.network() == null) {
      throw new IllegalArgumentException("the deployment of " + d.attempt() + " spans workers but has no network");
    }
    return d.network();
  }

  /** Closes the attempt's data connections, both ways. */
  @Override
  public void release(AttemptId attempt) {
    client.release(attempt);
    server.release(attempt);
    floating.remove(attempt);
  }

  @Override
  public void close() {
    client.close();
    server.close();
    group.shutdownGracefully();
  }
}
