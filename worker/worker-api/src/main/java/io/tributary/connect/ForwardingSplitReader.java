package io.tributary.connect;

/**
 * A split reader that forwards every call to another: decorators (fault injection, holding a source
 * open, throttling) override only what they change.
 */
public abstract class ForwardingSplitReader implements SplitReader {
  protected final SplitReader delegate;

  protected ForwardingSplitReader(SplitReader delegate) {
    this.delegate = delegate;
  }

  @Override
  public int read(SplitOutput out, int max) {
    return delegate.read(out, max);
  }

  @Override
  public String position() {
    return delegate.position();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
