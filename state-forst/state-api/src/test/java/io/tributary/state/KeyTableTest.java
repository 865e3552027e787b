package io.tributary.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyTableTest {
  /**
   * Random puts, gets and removes against a HashMap, with keys of one key group (they share the low
   * bits of their hash, as in a heap state) and tables grown past a few thousand entries.
   */
  @Test
  void behavesAsAMap() {
    int maxParallelism = 128;
    List<Key> pool = new ArrayList<>();
    for (long v = 0; pool.size() < 3000; v++) {
      Key k = Key.of(v);
      if (k.keyGroup(maxParallelism) == 5) {
        pool.add(k);
      }
    }
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 40; round++) {
      String why = "seed " + seed + ", round " + round;
      KeyTable<Integer> table = new KeyTable<>();
      Map<Key, Integer> model = new HashMap<>();
      int distinct = 1 + random.nextInt(random.nextBoolean() ? 20 : pool.size());
      for (int op = 0; op < 6000; op++) {
        // an equal key, not the same object
        Key k = Key.fromBytes(pool.get(random.nextInt(distinct)).bytes());
        int what = random.nextInt(5);
        if (what < 2) {
          table.put(k, op);
          model.put(k, op);
        } else if (what == 2) {
          table.remove(k);
          model.remove(k);
        } else {
          assertThat(table.get(k)).as(why).isEqualTo(model.get(k));
        }
        assertThat(table.size()).as(why).isEqualTo(model.size());
      }
      Map<Key, Integer> listed = new HashMap<>();
      for (int i = 0; i < table.capacity(); i++) {
        if (table.keyAt(i) != null) {
          listed.put(table.keyAt(i), table.valueAt(i));
        }
      }
      assertThat(listed).as(why).isEqualTo(model);
      for (Map.Entry<Key, Integer> e : model.entrySet()) {
        assertThat(table.get(e.getKey())).as(why).isEqualTo(e.getValue());
      }
    }
  }
}
