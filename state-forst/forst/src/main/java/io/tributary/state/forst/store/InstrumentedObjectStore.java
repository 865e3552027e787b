package io.tributary.state.forst.store;

import io.tributary.state.store.ObjectStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A decorator that counts traffic through another {@link ObjectStore}: puts, gets, deletes, bytes
 * uploaded and downloaded, failures (see {@link ObjectStoreMetrics}). Behaviour is otherwise exactly
 * the delegate's; closing it closes the delegate. Thread-safe.
 */
public final class InstrumentedObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final LongAdder puts = new LongAdder();
  private final LongAdder gets = new LongAdder();
  private final LongAdder deletes = new LongAdder();
  private final LongAdder uploaded = new LongAdder();
  private final LongAdder downloaded = new LongAdder();
  private final LongAdder failures = new LongAdder();

  /** Counts traffic to {@code delegate}. */
  public InstrumentedObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** The current counter values. */
  public ObjectStoreMetrics metrics() {
    return new ObjectStoreMetrics(puts.sum(), gets.sum(), deletes.sum(), uploaded.sum(), downloaded.sum(),
        failures.sum());
  }

  @Override
  public void put(String name, Path file) throws IOException {
    long size = Files.size(file);
    counted(() -> delegate.put(name, file));
    wrote(size);
  }

  /** Counted as one put; the bytes stay in the store (server-side copy), so none are counted. */
  @Override
  public void copy(String from, String to) throws IOException {
    counted(() -> delegate.copy(from, to));
    puts.increment();
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    counted(() -> delegate.put(name, bytes));
    wrote(bytes.length);
  }

  /** Counted as one put per object. */
  @Override
  public void putAll(java.util.Map<String, byte[]> objects) throws IOException {
    counted(() -> delegate.putAll(objects));
    objects.values().forEach(b -> wrote(b.length));
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    boolean written = counted(() -> delegate.putIfAbsent(name, bytes));
    if (written) {
      wrote(bytes.length);
    }
    return written;
  }

  @Override
  public void get(String name, Path target) throws IOException {
    counted(() -> delegate.get(name, target));
    read(Files.size(target));
  }

  @Override
  public void getShared(String name, Path target) throws IOException {
    counted(() -> delegate.getShared(name, target));
    read(Files.size(target));
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    byte[] bytes = counted(() -> delegate.getBytes(name));
    read(bytes.length);
    return bytes;
  }

  @Override
  public byte[] getRange(String name, long offset, int length) throws IOException {
    byte[] bytes = counted(() -> delegate.getRange(name, offset, length));
    read(bytes.length);
    return bytes;
  }

  @Override
  public InputStream open(String name) throws IOException {
    InputStream in = counted(() -> delegate.open(name));
    gets.increment();
    return new CountingInputStream(in);
  }

  @Override
  public boolean exists(String name) throws IOException {
    return counted(() -> delegate.exists(name));
  }

  @Override
  public long size(String name) throws IOException {
    return counted(() -> delegate.size(name));
  }

  @Override
  public void delete(String name) throws IOException {
    counted(() -> delegate.delete(name));
    deletes.increment();
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    return counted(() -> delegate.list(prefix));
  }

  @Override
  public String url() {
    return delegate.url();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private void wrote(long bytes) {
    puts.increment();
    uploaded.add(bytes);
  }

  private void read(long bytes) {
    gets.increment();
    downloaded.add(bytes);
  }

  private <T> T counted(IoCall<T> call) throws IOException {
    try {
      return call.run();
    } catch (IOException | RuntimeException e) {
      failures.increment();
      throw e;
    }
  }

  private void counted(IoRun call) throws IOException {
    counted(() -> {
      call.run();
      return null;
    });
  }

  private interface IoCall<T> {
    T run() throws IOException;
  }

  private interface IoRun {
    void run() throws IOException;
  }

  private final class CountingInputStream extends FilterInputStream {
    CountingInputStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        downloaded.increment();
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        downloaded.add(n);
      }
      return n;
    }
  }
}
