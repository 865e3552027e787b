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
