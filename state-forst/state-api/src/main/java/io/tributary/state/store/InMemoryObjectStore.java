package io.tributary.state.store;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link ObjectStore} in memory, for tests and benchmarks (nothing is durable). Writes
 * can be held back with {@link #holdWrites()} until {@link #releaseWrites()},
 * to observe what happens while an upload is in flight. Thread-safe.
 */
public final class InMemoryObjectStore implements ObjectStore {
  private final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();
  private volatile CountDownLatch gate = new CountDownLatch(0);
  private final AtomicInteger gets = new AtomicInteger();

  public void holdWrites() {
    gate = new CountDownLatch(1);
  }

  public void releaseWrites() {
    gate.countDown();
  }

  /** Number of {@link #getBytes} calls so far. */
  public int gets() {
    return gets.get();
  }

  @Override
  public void put(String name, Path file) throws IOException {
    put(name, Files.readAllBytes(file));
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    awaitGate();
    objects.put(name, bytes.clone());
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    awaitGate();
    return objects.putIfAbsent(name, bytes.clone()) == null;
  }

  @Override
  public void get(String name, Path target) throws IOException {
    Files.write(target, getBytes(name));
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    gets.incrementAndGet();
    byte[] b = objects.get(name);
    if (b == null) {
      throw new FileNotFoundException(name);
    }
    return b.clone();
  }

  @Override
  public InputStream open(String name) throws IOException {
    return new ByteArrayInputStream(getBytes(name));
  }

  @Override
  public boolean exists(String name) {
    return objects.containsKey(name);
  }

  @Override
  public long size(String name) {
    byte[] b = objects.get(name);
    return b == null ? -1 : b.length;
  }

  @Override
  public void delete(String name) {
    objects.remove(name);
  }

  @Override
  public List<String> list(String prefix) {
    List<String> names = new ArrayList<>();
    for (String n : objects.tailMap(prefix).keySet()) {
      if (!n.startsWith(prefix)) {
        break;
      }
      names.add(n);
    }
    return names;
  }

  @Override
  public String url() {
    return "memory://";
  }

  @Override
  public void close() {}

  private void awaitGate() throws IOException {
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
