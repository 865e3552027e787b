package io.tributary.worker.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.tributary.protocol.AttemptId;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sending side of a worker's data plane: one connection per (attempt, receiving worker),
 * introduced by the attempt's data token, carrying every channel from this worker to that one.
 */
final class DataClient implements AutoCloseable {
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final EventLoopGroup group;
  private final String worker;
  private final Map<String, Connection> connections = new ConcurrentHashMap<>();

  /** @param worker this worker's id, told to receivers (for their logs) */
  DataClient(EventLoopGroup group, String worker) {
    this.group = group;
    this.worker = worker;
  }

  /**
   * The connection of {@code attempt} to worker {@code receiver} at {@code address} ({@code host:port}),
   * opened once.
   */
  Connection connection(AttemptId attempt, String token, String receiver, String address) {
    return connections.computeIfAbsent(attempt + "@" + address, k -> connect(attempt, token, receiver, address));
  }

  private Connection connect(AttemptId attempt, String token, String receiver, String address) {
    int colon = address.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("a data address is host:port, not '" + address + "'");
    }
    Connection conn = new Connection(attempt, "worker '" + receiver + "' at " + address);
    Channel ch;
    try {
      ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
          .option(ChannelOption.TCP_NODELAY, true)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel c) {
              c.pipeline().addLast(new LengthFieldBasedFrameDecoder(Frames.MAX_FRAME, 0, 4, 0, 4),
                  new LengthFieldPrepender(4), conn.handler());
            }
          })
          .connect(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted connecting to " + address, e);
    } catch (RuntimeException e) {
      throw failure("cannot connect to worker '" + receiver + "' at " + address + " for " + attempt + ": "
          + e.getMessage(), e);
    } catch (Exception e) {
      throw failure("cannot connect to worker '" + receiver + "' at " + address + " for " + attempt + ": "
          + e.getMessage(), e);
    }
    conn.channel = ch;
    ch.writeAndFlush(Frames.hello(ch.alloc(), attempt.job(), attempt.attempt(), token, worker));
    return conn;
  }

  static UncheckedIOException failure(String message, Throwable cause) {
    return new UncheckedIOException(message, new java.io.IOException(message, cause));
  }

  /** Closes the attempt's connections. */
  void release(AttemptId attempt) {
    String prefix = attempt + "@";
    connections.entrySet().removeIf(e -> {
      if (e.getKey().startsWith(prefix)) {
        e.getValue().close();
        return true;
      }
      return false;
    });
  }

  @Override
  public void close() {
    connections.values().forEach(Connection::close);
    connections.clear();
  }

  /** One connection to a receiving worker, multiplexing channels. */
  static final class Connection {
    private final AttemptId attempt;
    /** Who it reaches, for messages: {@code worker 'w' at host:port}. */
    private final String address;
    private final Map<Long, RemoteOutboundChannel> channels = new ConcurrentHashMap<>();
    private volatile Channel channel;
    private volatile boolean closing;

    Connection(AttemptId attempt, String address) {
      this.attempt = attempt;
      this.address = address;
    }

    Channel channel() {
      return channel;
    }

    /** Opens channel {@code id}; it may send once the receiver grants credits. */
    RemoteOutboundChannel open(long id) {
      RemoteOutboundChannel c = new RemoteOutboundChannel(id, this);
      channels.put(id, c);
      channel.writeAndFlush(Frames.open(channel.alloc(), id));
      return c;
    }

    void close() {
      closing = true;
      Channel c = channel;
      if (c != null) {
        c.close();
      }
    }

    SimpleChannelInboundHandler<ByteBuf> handler() {
      return new SimpleChannelInboundHandler<>() {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
          if (frame.readByte() != Frames.CREDIT) {
            ctx.close();
            return;
          }
          RemoteOutboundChannel c = channels.get(frame.readLong());
          int n = frame.readInt();
          if (c != null) {
            c.credited(n);
          }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
          String why = closing ? "the attempt's data connections were closed"
              : "the data connection of " + attempt + " to " + address + " was lost";
          channels.values().forEach(c -> c.broken(why));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
          ctx.close();
        }
      };
    }
  }
}
