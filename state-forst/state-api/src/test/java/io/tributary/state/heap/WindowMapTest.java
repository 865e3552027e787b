package io.tributary.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WindowMapTest {
  /** Random puts, gets and removes against a HashMap, through the array and past it into a map of its own. */
  @Test
  void behavesAsAMap() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      String why = "seed " + seed + ", round " + round;
      WindowMap<String, Integer> windows = new WindowMap<>();
      Map<String, Integer> model = new HashMap<>();
      int distinct = 1 + random.nextInt(random.nextBoolean() ? WindowMap.ARRAY_MAX : 30);
      for (int op = 0; op < 300; op++) {
        String w = new String("w" + random.nextInt(distinct)); // equal, not the same object
        int what = random.nextInt(3);
        if (what == 0) {
          windows.put(w, op);
          model.put(w, op);
        } else if (what == 1) {
          assertThat(windows.remove(w)).as(why).isEqualTo(model.remove(w) != null);
        } else {
          assertThat(windows.get(w)).as(why).isEqualTo(model.get(w));
        }
        assertThat(windows.size()).as(why).isEqualTo(model.size());
        assertThat(windows.isEmpty()).as(why).isEqualTo(model.isEmpty());
      }
      assertThat(windows.windows()).as(why).containsExactlyInAnyOrderElementsOf(model.keySet());
    }
  }
}
