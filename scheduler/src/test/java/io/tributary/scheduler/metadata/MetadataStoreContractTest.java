package io.tributary.scheduler.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link MetadataStore} must do; subclasses open a fresh, empty store per test.
 * Abstract, so JUnit runs it only through its subclasses.
 */
public abstract class MetadataStoreContractTest {
  protected MetadataStore store;

  /** A fresh, empty store. */
  protected abstract MetadataStore open() throws Exception;

  /** Operations for the random-model test; smaller for remote stores. */
  protected int randomOperations() {
    return 300;
  }

  @BeforeEach
  void openStore() throws Exception {
    store = open();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  @Test
  void savepointEntriesKeepTheirSummaryAndEntriesWithoutOneStayReadable() throws Exception {
    var checkpoints = new io.tributary.scheduler.checkpoint.CheckpointStore("orders",
        new io.tributary.state.store.InMemoryObjectStore(), store);
    var taken = new io.tributary.checkpoint.CheckpointMetadata("orders", 7,
        io.tributary.checkpoint.CheckpointMetadata.SAVEPOINT, 1, 128, 1000, List.of());
    var summary = new io.tributary.scheduler.checkpoint.CheckpointStore.Summary("stop", 4096L, 350L, 3, 1000L, 650L,
        2_000_000L, 1024L, 1500L);
    checkpoints.addRetained(taken, checkpoints.writeMetadata(taken), summary);
    var old = new io.tributary.checkpoint.CheckpointMetadata("orders", 9,
        io.tributary.checkpoint.CheckpointMetadata.SAVEPOINT, 1, 128, 2000, List.of());
    checkpoints.addRetained(old, checkpoints.writeMetadata(old)); // as older versions wrote entries

    assertThat(checkpoints.savepoints()).extracting(io.tributary.scheduler.checkpoint.CheckpointStore.Retained::summary)
        .containsExactly(summary, null);
    assertThat(checkpoints.deleteSavepoint(7)).isTrue();
    assertThat(checkpoints.savepoints()).extracting(io.tributary.scheduler.checkpoint.CheckpointStore.Retained::id)
        .containsExactly(9L);
  }

  @Test
  void anAbsentKeyReadsAsEmpty() {
    assertThat(store.get("jobs/a/spec")).isEmpty();
  }

  @Test
  void createThenUpdateCountsVersionsFromOne() {
    assertThat(store.put("jobs/a/spec", bytes("one"), 0)).isEqualTo(1);
    assertThat(store.put("jobs/a/spec", bytes("two"), 1)).isEqualTo(2);
    assertThat(store.get("jobs/a/spec")).contains(new Item("jobs/a/spec", 2, bytes("two")));
  }

  @Test
  void creatingAnExistingItemConflictsAndChangesNothing() {
    store.put("jobs/a/spec", bytes("one"), 0);
    assertThatThrownBy(() -> store.put("jobs/a/spec", bytes("other"), 0))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.key()).isEqualTo("jobs/a/spec");
          assertThat(e.expectedVersion()).isZero();
          assertThat(e.actualVersion()).isEqualTo(1);
          assertThat(e.retryable()).isTrue();
          assertThat(e).hasMessageContaining("jobs/a/spec").hasMessageContaining("version 1");
        });
    assertThat(store.get("jobs/a/spec").orElseThrow().valueAsString()).isEqualTo("one");
  }

  @Test
  void aStaleVersionConflictsNamingBothVersions() {
    store.put("jobs/a/spec", bytes("one"), 0);
    store.put("jobs/a/spec", bytes("two"), 1);
    assertThatThrownBy(() -> store.put("jobs/a/spec", bytes("late"), 1))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.expectedVersion()).isEqualTo(1);
          assertThat(e.actualVersion()).isEqualTo(2);
        });
    assertThatThrownBy(() -> store.put("jobs/b/spec", bytes("x"), 3))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.actualVersion()).isZero());
    assertThat(store.get("jobs/a/spec").orElseThrow().valueAsString()).isEqualTo("two");
    assertThat(store.get("jobs/b/spec")).isEmpty();
  }

  @Test
  void deleteIsConditionalToo() {
    store.put("jobs/a/spec", bytes("one"), 0);
    assertThatThrownBy(() -> store.delete("jobs/a/spec", 2)).isInstanceOf(ConflictException.class);
    store.delete("jobs/a/spec", 1);
    assertThat(store.get("jobs/a/spec")).isEmpty();
    assertThatThrownBy(() -> store.delete("jobs/a/spec", 1))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.actualVersion()).isZero());
    assertThat(store.put("jobs/a/spec", bytes("again"), 0)).isEqualTo(1);
  }

  @Test
  void emptyAndLargestValuesRoundTrip() {
    byte[] largest = new byte[Item.MAX_VALUE_BYTES];
    new Random(7).nextBytes(largest);
    store.put("blobs/x/empty", new byte[0], 0);
    store.put("blobs/x/largest", largest, 0);
    assertThat(store.get("blobs/x/empty").orElseThrow().value()).isEmpty();
    assertThat(store.get("blobs/x/largest").orElseThrow().value()).isEqualTo(largest);
    assertThatThrownBy(() -> store.put("blobs/x/big", new byte[Item.MAX_VALUE_BYTES + 1], 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void badKeysAndPrefixesAreRefused() {
    for (String key : List.of("", "single", "a//b", "/a/b", "a/b/", "a/b c", "a/bé")) {
      assertThatThrownBy(() -> store.get(key)).as(key).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.put(key, bytes("v"), 0)).as(key).isInstanceOf(IllegalArgumentException.class);
    }
    for (String prefix : List.of("projects/", "projects/default", "projects//", "/a/")) {
      assertThatThrownBy(() -> store.query(prefix, Optional.empty(), 10))
          .as(prefix).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> store.query("a/b/", Optional.empty(), 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void queryReturnsOnlyThePrefixInKeyOrder() {
    for (String key : List.of("projects/default/jobs/b", "projects/default/jobs/a", "projects/default/jobsx/c",
        "projects/default", "projects/defaults/jobs/a", "projects/default/jobs/a/x", "projects/other/jobs/a")) {
      store.put(key, bytes(key), 0);
    }
    assertThat(keys(store.queryAll("projects/default/jobs/")))
        .containsExactly("projects/default/jobs/a", "projects/default/jobs/a/x", "projects/default/jobs/b");
    assertThat(keys(store.queryAll("projects/default/")))
        .containsExactly("projects/default/jobs/a", "projects/default/jobs/a/x", "projects/default/jobs/b",
            "projects/default/jobsx/c");
    assertThat(store.query("projects/none/", Optional.empty(), 5).items()).isEmpty();
  }

  @Test
  void pagesCoverEveryItemOnceInOrder() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String key = "jobs/j/checkpoints/" + String.format("%04d", i);
      store.put(key, bytes("c" + i), 0);
      expected.add(key);
    }
    List<String> seen = new ArrayList<>();
    Optional<String> next = Optional.empty();
    int pages = 0;
    do {
      Page page = store.query("jobs/j/checkpoints/", next, 3);
      assertThat(page.items()).hasSizeLessThanOrEqualTo(3);
      seen.addAll(keys(page.items()));
      next = page.continuation();
      pages++;
    } while (next.isPresent() && pages < 10);
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void randomOperationsAgreeWithAModel() {
    long seed = new Random().nextLong();
    System.out.println(getClass().getSimpleName() + " randomOperationsAgreeWithAModel seed " + seed);
    Random random = new Random(seed);
    TreeMap<String, Item> model = new TreeMap<>();
    for (int op = 0; op < randomOperations(); op++) {
      String key = "g/" + random.nextInt(2) + "/" + random.nextInt(6);
      Item current = model.get(key);
      long expected = random.nextInt(4) == 0 ? random.nextInt(3) : current == null ? 0 : current.version();
      boolean succeeds = expected == (current == null ? 0 : current.version());
      String context = "seed " + seed + ", op " + op + ", " + key + " expecting v" + expected;
      if (random.nextInt(5) == 0 && expected > 0) {
        deleteOrConflict(key, expected, succeeds, context);
        if (succeeds) {
          model.remove(key);
        }
      } else {
        byte[] value = bytes("op" + op);
        putOrConflict(key, value, expected, succeeds, context);
        if (succeeds) {
          model.put(key, new Item(key, expected + 1, value));
        }
      }
      assertThat(store.get(key)).as(context).isEqualTo(Optional.ofNullable(model.get(key)));
    }
    for (String group : List.of("g/0/", "g/1/")) {
      assertThat(store.queryAll(group)).as("seed " + seed).containsExactlyElementsOf(
          model.subMap(group, group + Character.MAX_VALUE).values());
    }
  }

  private void putOrConflict(String key, byte[] value, long expected, boolean succeeds, String context) {
    if (succeeds) {
      assertThat(store.put(key, value, expected)).as(context).isEqualTo(expected + 1);
    } else {
      assertThatThrownBy(() -> store.put(key, value, expected)).as(context).isInstanceOf(ConflictException.class);
    }
  }

  private void deleteOrConflict(String key, long expected, boolean succeeds, String context) {
    if (succeeds) {
      store.delete(key, expected);
    } else {
      assertThatThrownBy(() -> store.delete(key, expected)).as(context).isInstanceOf(ConflictException.class);
    }
  }

  @Test
  void concurrentCompareAndSetIncrementsLoseNothing() throws Exception {
    int threads = 4;
    int increments = 25;
    store.put("counters/c/n", bytes("0"), 0);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Integer>> conflicts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        conflicts.add(pool.submit(incrementer(start, increments)));
      }
      start.countDown();
      int totalConflicts = 0;
      for (Future<Integer> f : conflicts) {
        totalConflicts += f.get(2, TimeUnit.MINUTES);
      }
      Item counter = store.get("counters/c/n").orElseThrow();
      assertThat(counter.valueAsString()).isEqualTo(Integer.toString(threads * increments));
      assertThat(counter.version()).isEqualTo(1 + threads * increments);
      System.out.println(getClass().getSimpleName() + ": " + totalConflicts + " conflicts retried");
    } finally {
      pool.shutdownNow();
    }
  }

  private Callable<Integer> incrementer(CountDownLatch start, int increments) {
    return () -> {
      start.await();
      int conflicts = 0;
      for (int done = 0; done < increments; ) {
        Item current = store.get("counters/c/n").orElseThrow();
        long next = Long.parseLong(current.valueAsString()) + 1;
        try {
          store.put("counters/c/n", bytes(Long.toString(next)), current.version());
          done++;
        } catch (ConflictException e) {
          conflicts++;
        }
      }
      return conflicts;
    };
  }

  @Test
  void aTakenOverLeaseFencesItsFormerHolder() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    Lease a = new Lease(store, "leases/control-plane/leader", "a", Duration.ofSeconds(10), clock);
    Lease b = new Lease(store, "leases/control-plane/leader", "b", Duration.ofSeconds(10), clock);
    LeaseGrant first = a.tryAcquire().orElseThrow();
    FencedWrites.write(store, "jobs/j/checkpoints/latest", first.epoch(), bytes("chk-1"), 0);
    assertThat(b.tryAcquire()).isEmpty();
    clock.advance(Duration.ofSeconds(10));
    LeaseGrant second = b.tryAcquire().orElseThrow();
    assertThat(second.epoch()).isGreaterThan(first.epoch());
    FencedWrites.fence(store, "jobs/j/checkpoints/latest", second.epoch());
    long version = FencedWrites.read(store, "jobs/j/checkpoints/latest").orElseThrow().version();
    assertThatThrownBy(() -> FencedWrites.write(store, "jobs/j/checkpoints/latest", first.epoch(), bytes("chk-2"), version))
        .isInstanceOf(FencedException.class);
    assertThat(a.renew(first)).isEmpty();
    assertThat(FencedWrites.read(store, "jobs/j/checkpoints/latest").orElseThrow().body()).isEqualTo(bytes("chk-1"));
  }

  private static List<String> keys(List<Item> items) {
    return items.stream().map(Item::key).toList();
  }

  /** For subclasses: the map of a store's group, by key. */
  protected Map<String, Item> group(String prefix) {
    Map<String, Item> all = new TreeMap<>();
    store.queryAll(prefix).forEach(item -> all.put(item.key(), item));
    return all;
  }
}
