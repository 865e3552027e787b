package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.Key;
import io.tributary.worker.operator.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimerSetTest {
  /** Random adds and removals, by equality and by reference, against a HashMap of the same timers. */
  @Test
  void behavesAsAHashSetOfTimers() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 50; round++) {
      String why = "seed " + seed + ", round " + round;
      TimerSet set = new TimerSet();
      Map<Timer, TimerHeap.Entry> model = new HashMap<>();
      List<TimerHeap.Entry> in = new ArrayList<>();
      int keys = 1 + random.nextInt(random.nextBoolean() ? 20 : 5_000);
      for (int op = 0; op < 5_000; op++) {
        int what = random.nextInt(10);
        TimerHeap.Entry e = new TimerHeap.Entry(Key.of((long) random.nextInt(keys)), random.nextInt(3),
            random.nextInt(4) * 1000L);
        if (what < 5) {
          TimerHeap.Entry present = set.addIfAbsent(e);
          TimerHeap.Entry expected = model.putIfAbsent(e, e);
          assertThat(present).as(why).isSameAs(expected);
          if (expected == null) {
            in.add(e);
          }
        } else if (what < 8) {
          Timer plain = new Timer(e.key(), e.namespace(), e.time());
          TimerHeap.Entry removed = set.remove(plain);
          assertThat(removed).as(why).isSameAs(model.remove(plain));
          if (removed != null) {
            in.remove(removed);
          }
        } else if (!in.isEmpty()) {
          TimerHeap.Entry gone = in.remove(random.nextInt(in.size()));
          set.removeExact(gone);
          model.remove(gone);
          set.removeExact(gone); // no longer there: nothing happens
        }
        assertThat(set.size()).as(why).isEqualTo(model.size());
      }
      for (TimerHeap.Entry e : in) {
        assertThat(set.addIfAbsent(new TimerHeap.Entry(e.key(), e.namespace(), e.time()))).as(why).isSameAs(e);
      }
    }
  }

  /** An equal timer that is another object is not taken out by reference. */
  @Test
  void removeExactComparesReferences() {
    TimerSet set = new TimerSet();
    TimerHeap.Entry e = new TimerHeap.Entry(Key.of(1L), "w", 5);
    set.addIfAbsent(e);
    set.removeExact(new TimerHeap.Entry(Key.of(1L), "w", 5));
    assertThat(set.size()).isEqualTo(1);
    set.removeExact(e);
    assertThat(set.size()).isZero();
  }
}
