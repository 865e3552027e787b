package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.Key;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import io.tributary.state.forst.rocks.TestCodecs.Window;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random puts, deletes and window updates over many keys, snapshots, and restores at random
 * parallelisms from the latest snapshot (sometimes in a fresh "process" with a wiped local disk):
 * the state must always equal a simple model.
 */
class ForstRescalePropertyTest {
  private static final int MAX_PARALLELISM = 8;
  private static final int KEYS = 400;

  @TempDir
  Path tmp;

  /** The model: per key, its value and its windows. */
  private final Map<Long, Long> values = new HashMap<>();
  private final Map<Long, Map<Window, Long>> windows = new HashMap<>();

  @Test
  void rescalingOneTwoFourThreeKeepsEveryEntry() throws Exception {
    run(42L, new int[] {1, 2, 4, 3});
  }

  @Test
  void randomRestoresMatchTheModel() throws Exception {
    long seed = System.nanoTime();
    System.out.println("ForstRescalePropertyTest seed = " + seed);
    Random r = new Random(seed);
    int[] parallelisms = new int[5];
    for (int i = 0; i < parallelisms.length; i++) {
      parallelisms[i] = 1 + r.nextInt(5);
    }
    run(seed, parallelisms);
  }

  private void run(long seed, int[] parallelisms) throws Exception {
    Random r = new Random(seed);
    try (ForstTestEnv env = new ForstTestEnv(tmp)) {
      List<StateSnapshot> latest = List.of();
      long checkpoint = 0;
      for (int p : parallelisms) {
        if (r.nextBoolean()) {
          env.restartWipingLocalDisk();
        }
        List<KeyedStateBackend> tasks = open(env, p, latest);
        verify(tasks, p);
        for (int round = 0; round < 2; round++) {
          mutate(tasks, p, r, 300);
          latest = snapshotAll(tasks, ++checkpoint);
        }
        mutate(tasks, p, r, 100); // lost: not in the latest snapshot
        tasks.forEach(KeyedStateBackend::close);
        rollBackModelTo(latest, env);
      }
    }
  }

  private List<KeyedStateBackend> open(ForstTestEnv env, int p, List<StateSnapshot> from) {
    List<KeyedStateBackend> tasks = new ArrayList<>();
    for (int i = 0; i < p; i++) {
      tasks.add(env.factory.restore("job", "op", KeyGroups.rangeFor(MAX_PARALLELISM, p, i), MAX_PARALLELISM, from));
    }
    return tasks;
  }

  private KeyedStateBackend owner(List<KeyedStateBackend> tasks, int p, long key) {
    Key k = Key.of(key);
    KeyedStateBackend b = tasks.get(KeyGroups.subtaskFor(k.keyGroup(MAX_PARALLELISM), MAX_PARALLELISM, p));
    b.setCurrentKey(k);
    return b;
  }

  private void mutate(List<KeyedStateBackend> tasks, int p, Random r, int ops) {
    for (int i = 0; i < ops; i++) {
      long key = r.nextInt(KEYS);
      KeyedStateBackend b = owner(tasks, p, key);
      ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      Window win = new Window(r.nextInt(4) * 10L, r.nextInt(4) * 10L + 10);
      int op = r.nextInt(10);
      if (op < 4) {
        long x = r.nextLong();
        v.update(x);
        values.put(key, x);
      } else if (op < 5) {
        v.clear();
        values.remove(key);
      } else if (op < 9) {
        Long acc = w.get(win);
        long next = (acc == null ? 0 : acc) + 1;
        w.put(win, next);
        windows.computeIfAbsent(key, k -> new HashMap<>()).put(win, next);
      } else {
        w.remove(win);
        Map<Window, Long> m = windows.get(key);
        if (m != null) {
          m.remove(win);
        }
      }
    }
  }

  private Map<Long, Long> savedValues = new HashMap<>();
  private Map<Long, Map<Window, Long>> savedWindows = new HashMap<>();

  private List<StateSnapshot> snapshotAll(List<KeyedStateBackend> tasks, long checkpoint) throws Exception {
    List<StateSnapshot> out = new ArrayList<>();
    for (KeyedStateBackend b : tasks) {
      out.add(b.snapshot(checkpoint).get());
    }
    savedValues = new HashMap<>(values);
    savedWindows = new HashMap<>();
    windows.forEach((k, m) -> savedWindows.put(k, new HashMap<>(m)));
    return out;
  }

  private void rollBackModelTo(List<StateSnapshot> latest, ForstTestEnv env) {
    values.clear();
    values.putAll(savedValues);
    windows.clear();
    savedWindows.forEach((k, m) -> windows.put(k, new HashMap<>(m)));
  }

  private void verify(List<KeyedStateBackend> tasks, int p) {
    for (long key = 0; key < KEYS; key++) {
      KeyedStateBackend b = owner(tasks, p, key);
      ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      assertThat(v.value()).as("value of key %d at parallelism %d", key, p).isEqualTo(values.get(key));
      Map<Window, Long> actual = new TreeMap<>(java.util.Comparator.comparingLong(Window::start)
          .thenComparingLong(Window::end));
      for (Window win : w.windows()) {
        actual.put(win, w.get(win));
      }
      Map<Window, Long> expected = windows.getOrDefault(key, Map.of());
      assertThat(actual).as("windows of key %d at parallelism %d", key, p).isEqualTo(expected);
    }
  }
}
