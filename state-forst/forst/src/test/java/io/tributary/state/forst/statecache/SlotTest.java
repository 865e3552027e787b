package io.tributary.state.forst.statecache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.Key;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A slot's entries, one in a field or many in a map, behave as a map by namespace. */
class SlotTest {
  @Test
  void randomOperationsAgreeWithAMap() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      Slot<String> slot = new Slot<>(Key.of("k"), null);
      Map<String, Entry> model = new HashMap<>();
      for (int op = 0; op < 60; op++) {
        // new String: namespaces equal by value but not by reference must find the same entry
        String ns = new String("w" + random.nextInt(4));
        switch (random.nextInt(4)) {
          case 0 -> {
            if (!model.containsKey(ns)) {
              Entry e = new Entry(ns, op, false, false);
              slot.add(e);
              model.put(ns, e);
            }
          }
          case 1 -> {
            slot.remove(ns);
            model.remove(ns);
          }
          case 2 -> {
            int parity = random.nextInt(2);
            int removed = slot.removeIf(e -> (Integer) e.value % 2 == parity);
            int before = model.size();
            model.values().removeIf(e -> (Integer) e.value % 2 == parity);
            assertThat(removed).as("removed (seed %d)", seed).isEqualTo(before - model.size());
          }
          default -> assertThat(slot.entry(ns)).as("entry %s (seed %d)", ns, seed).isSameAs(model.get(ns));
        }
        assertThat(slot.size()).as("size (seed %d)", seed).isEqualTo(model.size());
        assertThat(slot.isEmpty()).isEqualTo(model.isEmpty());
        List<Entry> listed = new ArrayList<>();
        slot.forEachEntry(listed::add);
        assertThat(listed).as("entries (seed %d)", seed).containsExactlyInAnyOrderElementsOf(model.values());
        for (Entry e : model.values()) {
          assertThat(slot.entry(new String((String) e.ns))).isSameAs(e);
        }
      }
    }
  }
}
