package io.tributary.state.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * An object store that hands every call to another one: the base of decorators (instrumentation,
 * fault injection in tests) that override only the calls they change. Closing it closes the
 * delegate.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
  protected final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void put(String name, Path file) throws IOException {
    delegate.put(name, file);
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    delegate.put(name, bytes);
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    return delegate.putIfAbsent(name, bytes);
  }

  @Override
  public void copy(String from, String to) throws IOException {
    delegate.copy(from, to);
  }

  @Override
  public void get(String name, Path target) throws IOException {
    delegate.get(name, target);
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    return delegate.getBytes(name);
  }

  @Override
  public byte[] getRange(String name, long offset, int length) throws IOException {
    return delegate.getRange(name, offset, length);
  }

  @Override
  public InputStream open(String name) throws IOException {
    return delegate.open(name);
  }

  @Override
  public boolean exists(String name) throws IOException {
    return delegate.exists(name);
  }

  @Override
  public long size(String name) throws IOException {
    return delegate.size(name);
  }

  @Override
  public void delete(String name) throws IOException {
    delegate.delete(name);
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public String url() {
    return delegate.url();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
