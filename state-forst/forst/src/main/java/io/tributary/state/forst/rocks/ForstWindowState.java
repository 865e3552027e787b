package io.tributary.state.forst.rocks;

import io.tributary.state.StateCodec;
import io.tributary.state.WindowState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One accumulator per (current key, window); the window is the namespace. {@link #get} and
 * {@link #put} (the window operator's per-record path) serialize into reused buffers;
 * {@link #windows()} is a prefix scan over the current key's entries.
 */
final class ForstWindowState<W, A> extends ForstState implements WindowState<W, A> {
  private final StateCodec<W> windowCodec;
  private final StateCodec<A> accCodec;
  private final BytesIn nsIn = new BytesIn();

  ForstWindowState(ForstKeyedStateBackend backend, String name, StateCodec<W> windowCodec,
      StateCodec<A> accCodec) {
    super(backend, name);
    this.windowCodec = windowCodec;
    this.accCodec = accCodec;
  }

  @Override
  public A get(W window) {
    Shard shard = atPrefixIfAny();
    appendNamespace(windowCodec, window);
    return read(shard) ? decode(accCodec, valueIn()) : null;
  }

  @Override
  public void put(W window, A accumulator) {
    Shard shard = atPrefix();
    appendNamespace(windowCodec, window);
    put(shard, encode(accCodec, accumulator));
  }

  @Override
  public void remove(W window) {
    Shard shard = atPrefixIfAny();
    appendNamespace(windowCodec, window);
    delete(shard);
  }

  @Override
  public Collection<W> windows() {
    Shard shard = atPrefixIfAny();
    List<W> out = new ArrayList<>();
    scan(shard, (k, ns, v) -> out.add(windowCodec.read(nsIn.reset(k, ns, k.length - ns))));
    return out;
  }
}
