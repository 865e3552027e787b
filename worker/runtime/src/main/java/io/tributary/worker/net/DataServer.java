package io.tributary.worker.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.AttributeKey;
import io.tributary.protocol.AttemptId;
import io.tributary.worker.exchange.InputGate;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The receiving side of a worker's data plane: accepts connections from sender workers, checks
 * that their first frame names an attempt with the data token the control plane issued for it
 * (anything else is closed at once, before a byte of records is exchanged), and hands each
 * channel's buffers to the receiving task's gate once the task is built (opens that come earlier
 * wait for it).
 */
final class DataServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(DataServer.class.getName());
  private static final AttributeKey<Inbound> ATTEMPT = AttributeKey.valueOf("tributary.attempt");
  private static final AttributeKey<String> SENDER = AttributeKey.valueOf("tributary.sender");

  private final Channel server;
  private final DataTokens tokens;
  private final Map<AttemptId, Inbound> attempts = new ConcurrentHashMap<>();
  /** Attempts released here lately: a sender of one of them (cut off, fenced) is refused. */
  private final java.util.Set<AttemptId> released = java.util.Collections.synchronizedSet(
      java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<AttemptId, Boolean> eldest) {
          return size() > 10_000;
        }
      }));

  /** @param tokens the data tokens the control plane issues (a sender must present its attempt's) */
  DataServer(EventLoopGroup group, String bindHost, int port, DataTokens tokens) throws InterruptedException {
    this.tokens = tokens;
    this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(Frames.MAX_FRAME, 0, 4, 0, 4),
                new LengthFieldPrepender(4), new Handler());
          }
        }).bind(bindHost, port).sync().channel();
  }

  /** The port it listens on. */
  int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The receiving channels of attempt {@code attempt} on this worker. */
  Inbound attempt(AttemptId attempt) {
    return attempts.computeIfAbsent(attempt, Inbound::new);
  }

  /** Forgets the attempt and closes its connections. */
  void release(AttemptId attempt) {
    released.add(attempt);
    Inbound in = attempts.remove(attempt);
    if (in != null) {
      in.close();
    }
  }

  @Override
  public void close() {
    attempts.keySet().forEach(this::release);
    server.close().syncUninterruptibly();
  }

  /** The channels of one attempt that receive on this worker. */
  static final class Inbound {
    private final AttemptId attempt;
    private final Map<Long, RemoteInputChannel> channels = new ConcurrentHashMap<>();
    /** Opens that came before the channel was bound, by channel id. */
    private final Map<Long, Channel> pendingOpens = new ConcurrentHashMap<>();
    private final List<Channel> connections = new ArrayList<>();

    Inbound(AttemptId attempt) {
      this.attempt = attempt;
    }

    /** Channel {@code id} delivers into {@code gate} at {@code index}. */
    RemoteInputChannel bind(long id, InputGate gate, int index, int exclusive, FloatingCredits floating) {
      RemoteInputChannel c = new RemoteInputChannel(id, gate, index, exclusive, floating);
      channels.put(id, c);
      Channel waiting = pendingOpens.remove(id);
      if (waiting != null) {
        c.connect(waiting);
      }
      return c;
    }

    synchronized void connected(Channel c) {
      connections.add(c);
    }

    void open(Channel c, long id) {
      RemoteInputChannel ch = channels.get(id);
      if (ch != null) {
        ch.connect(c);
      } else {
        pendingOpens.put(id, c);
        RemoteInputChannel late = channels.get(id); // bound meanwhile
        if (late != null && pendingOpens.remove(id, c)) {
          late.connect(c);
        }
      }
    }

    RemoteInputChannel channel(long id) {
      return channels.get(id);
    }

    void lost(Channel c, String why) {
      for (RemoteInputChannel ch : channels.values()) {
        if (ch.connectedTo(c)) {
          ch.broken(why);
        }
      }
    }

    synchronized void close() {
      connections.forEach(Channel::close);
    }
  }

  private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      byte type = frame.readByte();
      Inbound in = ctx.channel().attr(ATTEMPT).get();
      if (in == null) {
        hello(ctx, type, frame);
        return;
      }
      switch (type) {
        case Frames.OPEN -> in.open(ctx.channel(), frame.readLong());
        case Frames.BUFFER -> {
          RemoteInputChannel ch = in.channel(frame.readLong());
          int backlog = frame.readInt();
          if (ch == null || !ch.connectedTo(ctx.channel())) {
            ctx.close(); // data on a channel never opened: a broken or hostile sender
            return;
          }
          ch.received(frame, backlog);
        }
        case Frames.PRIORITY_BARRIER -> {
          RemoteInputChannel ch = in.channel(frame.readLong());
          if (ch == null || !ch.connectedTo(ctx.channel())) {
            ctx.close();
            return;
          }
          ch.receivedPriorityBarrier(frame.readLong(), frame.readLong());
        }
        default -> ctx.close();
      }
    }

    private void hello(ChannelHandlerContext ctx, byte type, ByteBuf frame) {
      if (type != Frames.HELLO) {
        refuse(ctx, "no hello");
        return;
      }
      AttemptId attempt = new AttemptId(Frames.readUtf(frame), frame.readLong());
      String token = Frames.readUtf(frame);
      String sender = Frames.readUtf(frame);
      if (released.contains(attempt)) {
        refuse(ctx, "worker '" + sender + "' sends for attempt " + attempt + ", which is over here");
        return;
      }
      if (!tokens.valid(attempt, token)) {
        refuse(ctx, "worker '" + sender + "' named attempt " + attempt + " with a token not issued for it");
        return;
      }
      Inbound in = attempt(attempt); // its tasks here may not be built yet: their channels bind later
      ctx.channel().attr(ATTEMPT).set(in);
      ctx.channel().attr(SENDER).set(sender);
      in.connected(ctx.channel());
    }

    private void refuse(ChannelHandlerContext ctx, String why) {
      LOG.log(System.Logger.Level.WARNING, "data connection from {0} refused: {1}", ctx.channel().remoteAddress(),
          why);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      Inbound in = ctx.channel().attr(ATTEMPT).get();
      if (in != null) {
        in.lost(ctx.channel(), "the data connection from worker '" + ctx.channel().attr(SENDER).get() + "' ("
            + ctx.channel().remoteAddress() + ") of attempt " + in.attempt + " was lost");
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
