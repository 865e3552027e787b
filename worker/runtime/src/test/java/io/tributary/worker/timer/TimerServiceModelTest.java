package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.timer.LazyTimerRestoreTest.CountingCodec;
import io.tributary.worker.timer.LazyTimerRestoreTest.Svc;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Property test: a job's timer services under random register, delete, poll, snapshot and restore
 * (at other parallelisms, from several snapshots, sometimes in the old version 1 or 2 formats;
 * from bytes in memory or by ranges) against a reference model, a plain set of live timers per
 * subtask.
 */
class TimerServiceModelTest {
  private static final int M = 16;
  private static final Object[] NAMESPACES = {"a", "b", "window-c", null};

  /** How a snapshot's bytes reach the restore. */
  enum Restore {
    BYTES {
      @Override
      void into(Svc service, byte[] bytes, CountingCodec codec, KeyGroupRange range) {
        service.restore(bytes, codec, range, M);
      }
    },
    RANGES {
      @Override
      void into(Svc service, byte[] bytes, CountingCodec codec, KeyGroupRange range) {
        service.restore(new CountingSource(bytes), codec, range, M);
      }
    };

    abstract void into(Svc service, byte[] bytes, CountingCodec codec, KeyGroupRange range);
  }

  /** One subtask: the service under test and the model of its live timers and watermark. */
  private static final class Subtask {
    final KeyGroupRange range;
    final Svc service;
    final Set<Timer> model = new HashSet<>();
    long watermark = Long.MIN_VALUE;
    /** Registers and deletes since the restore: how far {@code size()} may be above the model's. */
    int touched;

    Subtask(KeyGroupRange range) {
      this.range = range;
      this.service = new Svc(range);
    }
  }

  @ParameterizedTest
  @EnumSource(Restore.class)
  void lazyServicesBehaveLikeSetsOfLiveTimers(Restore restore) {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    CountingCodec codec = new CountingCodec();
    for (int round = 0; round < 60; round++) {
      List<Subtask> job = subtasks(1 + random.nextInt(3));
      for (int generation = 0; generation < 5; generation++) {
        String where = "seed " + seed + ", round " + round + ", generation " + generation;
        int steps = random.nextInt(300);
        for (int i = 0; i < steps; i++) {
          step(job, random, where);
        }
        if (random.nextInt(4) == 0) {
          checkSnapshotIsExact(job.get(random.nextInt(job.size())), restore, codec, where);
        }
        job = rescale(job, 1 + random.nextInt(4), random, restore, codec);
      }
      // the end: everything left fires, once, in time order
      for (Subtask s : job) {
        long previous = Long.MIN_VALUE;
        for (Timer t; (t = s.service.pollDue(Long.MAX_VALUE)) != null; ) {
          assertThat(s.model.remove(t)).as("seed %d: %s fired but is not live", seed, t).isTrue();
          assertThat(t.time()).isGreaterThanOrEqualTo(previous);
          previous = t.time();
        }
        assertThat(s.model).as("seed %d: never fired", seed).isEmpty();
        assertThat(s.service.size()).isZero();
      }
    }
  }

  private static List<Subtask> subtasks(int parallelism) {
    List<Subtask> job = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      job.add(new Subtask(KeyGroups.rangeFor(M, parallelism, i)));
    }
    return job;
  }

  private static void step(List<Subtask> job, Random random, String where) {
    Key key = Key.of((long) random.nextInt(40));
    Subtask s = owner(job, key);
    Object namespace = NAMESPACES[random.nextInt(NAMESPACES.length)];
    long time = 20 * (s.watermark == Long.MIN_VALUE ? 0 : s.watermark / 20) + random.nextInt(80) - 10;
    int op = random.nextInt(10);
    if (op < 4) {
      s.service.register(key, namespace, time);
      s.model.add(new Timer(key, namespace, time));
      s.touched++;
    } else if (op < 6) {
      // delete one that is likely live (or absent)
      Timer victim = random.nextBoolean() && !s.model.isEmpty()
          ? s.model.iterator().next() : new Timer(key, namespace, time);
      s.service.delete(victim.key(), victim.namespace(), victim.time());
      s.model.remove(victim);
      s.touched++;
    } else if (op < 9) {
      long wm = Math.max(s.watermark, time - 20);
      s.watermark = wm;
      Timer fired = s.service.pollDue(wm);
      Timer expected = earliest(s.model);
      if (expected == null || expected.time() > wm) {
        assertThat(fired).as(where).isNull();
      } else {
        assertThat(fired).as(where).isNotNull();
        assertThat(fired.time()).as(where).isEqualTo(expected.time());
        assertThat(s.model.remove(fired)).as("%s: %s fired but is not live", where, fired).isTrue();
        assertThat(s.service.backend.currentKey()).isEqualTo(fired.key());
      }
    } else {
      Timer expected = earliest(s.model);
      assertThat(s.service.nextTimerTime()).as(where).isEqualTo(expected == null ? Long.MAX_VALUE : expected.time());
    }
    assertThat(s.service.size()).as(where).isBetween(s.model.size(), s.model.size() + s.touched);
    assertThat(s.service.currentWatermark()).as(where).isEqualTo(s.watermark);
  }

  /** A snapshot taken now (maybe while restored timers are undecoded) holds exactly the live timers. */
  private static void checkSnapshotIsExact(Subtask s, Restore restore, CountingCodec codec, String where) {
    byte[] bytes = s.service.snapshot(codec);
    Svc copy = new Svc(s.range);
    restore.into(copy, bytes, codec, s.range);
    Set<Timer> all = new HashSet<>();
    for (Timer t; (t = copy.pollDue(Long.MAX_VALUE)) != null; ) {
      assertThat(all.add(t)).as("%s: %s twice", where, t).isTrue();
    }
    assertThat(all).as(where).isEqualTo(s.model);
  }

  /** Snapshots every subtask and restores the job at {@code parallelism} from all the snapshots. */
  private static List<Subtask> rescale(List<Subtask> job, int parallelism, Random random, Restore restore,
      CountingCodec codec) {
    List<byte[]> snapshots = new ArrayList<>();
    long lowest = Long.MAX_VALUE;
    for (Subtask s : job) {
      int format = random.nextInt(8);
      snapshots.add(format < 2
          ? TimerSnapshotFormat.writeV1(s.watermark, s.model.toArray(new Timer[0]), codec)
          : format == 2 ? LazyTimerRestoreTest.asVersion2(s.service.snapshot(codec)) : s.service.snapshot(codec));
      lowest = Math.min(lowest, s.watermark);
    }
    List<Subtask> next = subtasks(parallelism);
    for (Subtask n : next) {
      for (byte[] bytes : snapshots) {
        restore.into(n.service, bytes, codec, n.range);
      }
      n.watermark = lowest;
      for (Subtask old : job) {
        for (Timer t : old.model) {
          if (n.range.contains(t.key().keyGroup(M))) {
            n.model.add(t);
          }
        }
      }
      assertThat(n.service.size()).isEqualTo(n.model.size());
    }
    return next;
  }

  private static Subtask owner(List<Subtask> job, Key key) {
    int kg = key.keyGroup(M);
    for (Subtask s : job) {
      if (s.range.contains(kg)) {
        return s;
      }
    }
    throw new AssertionError("no subtask owns key group " + kg);
  }

  private static Timer earliest(Set<Timer> timers) {
    Timer min = null;
    for (Timer t : timers) {
      if (min == null || t.time() < min.time()) {
        min = t;
      }
    }
    return min;
  }
}
