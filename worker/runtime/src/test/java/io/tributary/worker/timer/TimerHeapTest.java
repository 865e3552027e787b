package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.worker.operator.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimerHeapTest {
  private static final Key KEY = Key.of("k");

  /** Random adds, polls and removes against a list: every poll is an earliest timer, nothing is lost. */
  @Test
  void pollsTheEarliestAndRemovesAnyEntry() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      String why = "seed " + seed + ", round " + round;
      TimerHeap heap = new TimerHeap();
      List<TimerHeap.Entry> in = new ArrayList<>();
      int range = 1 + random.nextInt(random.nextBoolean() ? 10 : 1_000_000); // many equal times, or few
      for (int op = 0; op < 2_000; op++) {
        int what = random.nextInt(6);
        if (what < 3) {
          TimerHeap.Entry e = new TimerHeap.Entry(KEY, op, random.nextInt(range) - range / 2);
          heap.add(e);
          in.add(e);
        } else if (what < 5) {
          Timer polled = heap.poll();
          if (in.isEmpty()) {
            assertThat(polled).as(why).isNull();
          } else {
            long earliest = in.stream().mapToLong(Timer::time).min().orElseThrow();
            assertThat(polled.time()).as(why).isEqualTo(earliest);
            assertThat(in.removeIf(e -> e == polled)).isTrue();
            assertThat(((TimerHeap.Entry) polled).index).isEqualTo(-1);
          }
        } else if (!in.isEmpty()) {
          TimerHeap.Entry e = in.remove(random.nextInt(in.size()));
          heap.remove(e);
          assertThat(e.index).isEqualTo(-1);
        }
        assertThat(heap.size()).as(why).isEqualTo(in.size());
      }
      assertThat(heap.timers()).as(why).containsExactlyInAnyOrderElementsOf(List.copyOf(in));
      long previous = Long.MIN_VALUE;
      Timer t;
      while ((t = heap.poll()) != null) {
        assertThat(t.time()).as(why).isGreaterThanOrEqualTo(previous);
        previous = t.time();
      }
      assertThat(heap.size()).isZero();
    }
  }

  /** Window ends shared by many keys: their timers take one place per time, and leave in any order. */
  @Test
  void timersOfOneTimeShareAPlace() {
    TimerHeap heap = new TimerHeap();
    List<TimerHeap.Entry> in = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      TimerHeap.Entry e = new TimerHeap.Entry(KEY, i, 10_000 - 2_000 * (i % 3)); // 6000, 8000, 10000 in turn
      heap.add(e);
      in.add(e);
    }
    assertThat(heap.places()).isEqualTo(3);
    for (int i = 1; i < 3_000; i += 7) { // from the chains and from the places
      heap.remove(in.get(i));
      assertThat(in.get(i).index).isEqualTo(-1);
    }
    in.removeIf(e -> e.index == -1);
    assertThat(heap.size()).isEqualTo(in.size());
    assertThat(heap.timers()).containsExactlyInAnyOrderElementsOf(List.copyOf(in));
    List<Timer> polled = new ArrayList<>();
    Timer t;
    while ((t = heap.poll()) != null) {
      polled.add(t);
    }
    assertThat(polled).containsExactlyInAnyOrderElementsOf(List.copyOf(in));
    assertThat(polled).extracting(Timer::time).isSorted();
    assertThat(heap.places()).isZero();
  }

  @Test
  void anEntryThatLeftCannotBeRemovedAgain() {
    TimerHeap heap = new TimerHeap();
    TimerHeap.Entry e = new TimerHeap.Entry(KEY, "w", 5);
    heap.add(e);
    heap.add(new TimerHeap.Entry(KEY, "v", 7));
    heap.remove(e);
    assertThatThrownBy(() -> heap.remove(e)).isInstanceOf(IllegalArgumentException.class);
    assertThat(heap.poll().time()).isEqualTo(7);
  }
}
