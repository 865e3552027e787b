package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.TimerQueue;
import io.tributary.state.ValueState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timers of the forst backend against a model (a sorted set): random additions, removals and
 * polls, many more timers per key group than its cache holds, snapshots, and restores at random
 * parallelisms, sometimes in a fresh "process" with a wiped local disk.
 */
class ForstTimerQueueTest {
  private static final int MAX_PARALLELISM = 8;
  private static final Comparator<long[]> ORDER = Comparator.<long[]>comparingLong(t -> t[2])
      .thenComparingLong(t -> t[0]).thenComparingLong(t -> t[1]);

  @TempDir
  Path tmp;

  /** Timers cached per key group; 0: as the backend chooses. */
  private int cacheSize;
  /** Live timers as {key, namespace, time}. */
  private TreeSet<long[]> model = new TreeSet<>(ORDER);
  private long watermark = Long.MIN_VALUE;

  @Test
  void timersComeOutByTimeOnceEach() {
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyedStateBackend b = env.factory.create("job", "op", new KeyGroupRange(0, MAX_PARALLELISM), MAX_PARALLELISM);
      TimerQueue<Long> q = b.timerQueue("timers", TestCodecs.LONG);
      assertThat(b.timerQueue("timers", TestCodecs.LONG)).isSameAs(q);
      assertThat(q.peekTime()).isEqualTo(Long.MAX_VALUE);
      q.add(Key.of("a"), 1L, 30);
      q.add(Key.of("b"), 1L, 10);
      q.add(Key.of("b"), 1L, 10); // again: no-op
      q.add(Key.of("c"), 2L, -5);
      q.remove(Key.of("c"), 2L, -5);
      q.remove(Key.of("d"), 2L, 7); // absent: no-op
      assertThat(q.size()).isEqualTo(2);
      assertThat(q.peekTime()).isEqualTo(10);
      assertThat(q.poll(9)).isNull();
      assertThat(q.poll(10)).isEqualTo(new TimerQueue.Entry<>(Key.of("b"), 1L, 10));
      assertThat(q.poll(Long.MAX_VALUE)).isEqualTo(new TimerQueue.Entry<>(Key.of("a"), 1L, 30));
      assertThat(q.poll(Long.MAX_VALUE)).isNull();
      b.close();
    }
  }

  @Test
  void timersLeaveTheKeyFilterAndStateAlone() {
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyedStateBackend b = env.factory.create("job", "op", new KeyGroupRange(0, MAX_PARALLELISM), MAX_PARALLELISM);
      ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
      TimerQueue<Long> q = b.timerQueue("timers", TestCodecs.LONG);
      for (long k = 0; k < 2000; k++) {
        q.add(Key.of(k), k, k);
        b.setCurrentKey(Key.of(k));
        v.update(k);
      }
      for (long k = 0; k < 2000; k += 7) {
        b.setCurrentKey(Key.of(k));
        assertThat(v.value()).isEqualTo(k);
      }
      assertThat(q.size()).isEqualTo(2000);
      b.close();
    }
  }

  @Test
  void beyondTheBoundOfUnwrittenTimersCachedOnesAreWrittenDownAndStillComeOutInOrder() {
    int maxParallelism = 128; // room in the caches for more unwritten timers than the bound
    Random r = new Random(5);
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyedStateBackend b = env.factory.create("job", "op", new KeyGroupRange(0, maxParallelism), maxParallelism);
      ForstTimerQueue<Long> q = (ForstTimerQueue<Long>) b.timerQueue("timers", TestCodecs.LONG);
      int timers = ForstTimerQueue.MAX_UNWRITTEN + 4_000;
      for (int i = 0; i < timers; i++) {
        long[] t = {i, 0, r.nextInt(1_000_000)};
        q.add(Key.of(t[0]), t[1], t[2]);
        model.add(t);
        assertThat(q.unwritten()).isLessThanOrEqualTo(ForstTimerQueue.MAX_UNWRITTEN);
      }
      assertThat(q.size() - q.unwritten()).as("in RocksDB").isGreaterThanOrEqualTo(timers - ForstTimerQueue.MAX_UNWRITTEN);
      for (int i = 0; i < 3_000; i++) { // removals of written and unwritten ones alike
        long[] gone = pick(r);
        q.remove(Key.of(gone[0]), gone[1], gone[2]);
        model.remove(gone);
      }
      for (long[] expected : new ArrayList<>(model)) {
        TimerQueue.Entry<Long> e = q.poll(Long.MAX_VALUE);
        assertThat(e).as("a due timer").isNotNull();
        assertThat(e.time()).isEqualTo(expected[2]);
        long[] got = {(Long) e.key().get(0), e.namespace(), e.time()};
        assertThat(model.remove(got)).as("timer %s was live", e).isTrue();
      }
      assertThat(q.poll(Long.MAX_VALUE)).isNull();
      b.close();
    }
  }

  @Test
  void aKeyOfAnotherSubtaskIsRefused() {
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyedStateBackend b = env.factory.create("job", "op", KeyGroups.rangeFor(MAX_PARALLELISM, 2, 0),
          MAX_PARALLELISM);
      Key other = key(b, false);
      assertThatThrownBy(() -> b.timerQueue("t", TestCodecs.LONG).add(other, 1L, 1))
          .isInstanceOf(IllegalArgumentException.class);
      b.close();
    }
  }

  private static Key key(KeyedStateBackend b, boolean owned) {
    for (long k = 0; ; k++) {
      if (b.keyGroupRange().contains(Key.of(k).keyGroup(MAX_PARALLELISM)) == owned) {
        return Key.of(k);
      }
    }
  }

  @Test
  void manyMoreTimersThanTheCachesHoldSurviveARestoreAtAnotherParallelism() throws Exception {
    Random r = new Random(11);
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyedStateBackend one = env.factory.create("job", "op", new KeyGroupRange(0, MAX_PARALLELISM), MAX_PARALLELISM);
      List<KeyedStateBackend> tasks = List.of(one);
      for (int i = 0; i < 20_000; i++) {
        long[] t = {r.nextInt(5000), r.nextInt(3), r.nextInt(1_000_000)};
        queue(tasks, 1, t[0]).add(Key.of(t[0]), t[1], t[2]);
        model.add(t);
        if (i % 3 == 0) {
          long[] gone = pick(r);
          queue(tasks, 1, gone[0]).remove(Key.of(gone[0]), gone[1], gone[2]);
          model.remove(gone);
        }
      }
      watermark = 300_000;
      pollAll(one, 0, 1);
      List<StateSnapshot> snapshot = List.of(one.snapshot(1).get());
      one.close();
      List<KeyedStateBackend> two = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        two.add(env.factory.restore("job", "op", KeyGroups.rangeFor(MAX_PARALLELISM, 2, i), MAX_PARALLELISM,
            snapshot));
      }
      mutate(two, r, 2000);
      watermark = Long.MAX_VALUE;
      pollAll(two.get(0), 0, 2);
      pollAll(two.get(1), 1, 2);
      assertThat(model).isEmpty();
      two.forEach(KeyedStateBackend::close);
    }
  }

  @Test
  void aRestoredKeyGroupIsReadWhenFirstUsedAndAllOfThemWhenTheEarliestTimeIsAskedFor() throws Exception {
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      KeyGroupRange all = new KeyGroupRange(0, MAX_PARALLELISM);
      KeyedStateBackend b = env.factory.create("job", "op", all, MAX_PARALLELISM);
      TimerQueue<Long> q = b.timerQueue("timers", TestCodecs.LONG);
      for (long k = 0; k < 100; k++) {
        q.add(Key.of(k), null, 1000 - k);
      }
      List<StateSnapshot> snapshot = List.of(b.snapshot(1).get());
      b.close();
      long opened = env.factory.metrics().shardsOpened();

      KeyedStateBackend restored = env.factory.restore("job", "op", all, MAX_PARALLELISM, snapshot);
      TimerQueue<Long> r = restored.timerQueue("timers", TestCodecs.LONG);
      assertThat(env.factory.metrics().shardsOpened()).as("restore opens nothing").isEqualTo(opened);
      r.add(Key.of(7L), 3L, 5);
      r.remove(Key.of(8L), null, 1000 - 8);
      int groups = Key.of(7L).keyGroup(MAX_PARALLELISM) == Key.of(8L).keyGroup(MAX_PARALLELISM) ? 1 : 2;
      assertThat(env.factory.metrics().shardsOpened()).as("only the key groups used").isEqualTo(opened + groups);
      assertThat(r.peekTime()).isEqualTo(5);
      assertThat(env.factory.metrics().shardsOpened()).isEqualTo(opened + MAX_PARALLELISM);
      assertThat(r.poll(5)).isEqualTo(new TimerQueue.Entry<>(Key.of(7L), 3L, 5));
      List<Long> times = new ArrayList<>();
      for (TimerQueue.Entry<Long> e; (e = r.poll(Long.MAX_VALUE)) != null; ) {
        assertThat(e.namespace()).isNull();
        times.add(e.time());
      }
      assertThat(times).hasSize(99).isSorted().doesNotContain(1000L - 8);
      restored.close();
    }
  }

  @Test
  void rescalingOneTwoFourThreeMatchesTheModel() throws Exception {
    run(7L, new int[] {1, 2, 4, 3});
  }

  @Test
  void withTinyCachesRescalingMatchesTheModel() throws Exception {
    cacheSize = 3;
    run(8L, new int[] {1, 3, 2, 4});
  }

  @Test
  void randomRunsMatchTheModel() throws Exception {
    long seed = System.nanoTime();
    System.out.println("ForstTimerQueueTest seed = " + seed);
    Random r = new Random(seed);
    cacheSize = r.nextBoolean() ? 0 : 1 + r.nextInt(8);
    int[] parallelisms = new int[4];
    for (int i = 0; i < parallelisms.length; i++) {
      parallelisms[i] = 1 + r.nextInt(4);
    }
    run(seed, parallelisms);
  }

  private void run(long seed, int[] parallelisms) throws Exception {
    Random r = new Random(seed);
    try (ForstTestEnv env = new ForstTestEnv(tmp, cacheSize > 0 ? 0 : ForstConfig.DEFAULT_STATE_CACHE_ENTRIES)) {
      List<StateSnapshot> latest = List.of();
      TreeSet<long[]> saved = new TreeSet<>(ORDER);
      long savedWatermark = watermark;
      long checkpoint = 0;
      for (int p : parallelisms) {
        if (r.nextBoolean()) {
          env.restartWipingLocalDisk();
        }
        List<KeyedStateBackend> tasks = new ArrayList<>();
        for (int i = 0; i < p; i++) {
          tasks.add(env.factory.restore("job", "op", KeyGroups.rangeFor(MAX_PARALLELISM, p, i), MAX_PARALLELISM,
              latest));
        }
        for (int round = 0; round < 3; round++) {
          mutate(tasks, r, 3000);
          if (round < 2) {
            latest = new ArrayList<>();
            checkpoint++;
            for (KeyedStateBackend b : tasks) {
              latest.add(b.snapshot(checkpoint).get());
            }
            saved = new TreeSet<>(model);
            savedWatermark = watermark;
          }
        }
        tasks.forEach(KeyedStateBackend::close);
        model = new TreeSet<>(saved);
        watermark = savedWatermark;
      }
    }
  }

  /** Adds, removes and polls (the watermark moving up slowly) on every task, checking each poll. */
  private void mutate(List<KeyedStateBackend> tasks, Random r, int ops) {
    int p = tasks.size();
    for (int i = 0; i < ops; i++) {
      int op = r.nextInt(20);
      if (op < 12) {
        long[] t = {r.nextInt(300), r.nextInt(3), watermark + 1 + r.nextInt(2000)};
        queue(tasks, p, t[0]).add(Key.of(t[0]), t[1], t[2]);
        model.add(t);
      } else if (op < 15) {
        long[] t = r.nextBoolean() && !model.isEmpty() ? pick(r)
            : new long[] {r.nextInt(300), r.nextInt(3), watermark + r.nextInt(2000)};
        queue(tasks, p, t[0]).remove(Key.of(t[0]), t[1], t[2]);
        model.remove(t);
      } else {
        watermark = Math.max(watermark, (model.isEmpty() ? 0 : model.first()[2]) + r.nextInt(20));
        for (int s = 0; s < p; s++) {
          pollAll(tasks.get(s), s, p);
        }
      }
    }
    for (int s = 0; s < p; s++) {
      TimerQueue<Long> q = queue(tasks.get(s));
      List<long[]> mine = owned(s, p);
      assertThat(q.size()).isEqualTo(mine.size());
      assertThat(q.peekTime()).isEqualTo(mine.isEmpty() ? Long.MAX_VALUE : mine.get(0)[2]);
    }
  }

  private void pollAll(KeyedStateBackend b, int subtask, int p) {
    TimerQueue<Long> q = queue(b);
    List<long[]> due = owned(subtask, p).stream().filter(t -> t[2] <= watermark).toList();
    for (long[] expected : due) {
      TimerQueue.Entry<Long> e = q.poll(watermark);
      assertThat(e).as("a due timer").isNotNull();
      assertThat(e.time()).isEqualTo(expected[2]);
      long[] got = {(Long) e.key().get(0), e.namespace(), e.time()};
      assertThat(model.remove(got)).as("timer %s was live", e).isTrue();
    }
    assertThat(q.poll(watermark)).isNull();
  }

  private List<long[]> owned(int subtask, int p) {
    List<long[]> out = new ArrayList<>();
    for (long[] t : model) {
      if (KeyGroups.subtaskFor(Key.of(t[0]).keyGroup(MAX_PARALLELISM), MAX_PARALLELISM, p) == subtask) {
        out.add(t);
      }
    }
    return out;
  }

  private long[] pick(Random r) {
    long[] probe = {0, 0, watermark + r.nextInt(2000)};
    long[] t = model.ceiling(probe);
    return t == null ? model.first() : t;
  }

  private TimerQueue<Long> queue(List<KeyedStateBackend> tasks, int p, long key) {
    int s = KeyGroups.subtaskFor(Key.of(key).keyGroup(MAX_PARALLELISM), MAX_PARALLELISM, p);
    return queue(tasks.get(s));
  }

  private TimerQueue<Long> queue(KeyedStateBackend b) {
    return cacheSize > 0 ? ((ForstKeyedStateBackend) b).timerQueue("timers", TestCodecs.LONG, cacheSize)
        : b.timerQueue("timers", TestCodecs.LONG);
  }
}
