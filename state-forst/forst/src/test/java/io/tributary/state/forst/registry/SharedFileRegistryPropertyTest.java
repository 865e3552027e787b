package io.tributary.state.forst.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.forst.store.FaultyObjectStore;
import io.tributary.state.forst.store.LocalObjectStore;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random checkpoints (register, upload, maybe fail and release), releases, restarts (rebuild and
 * orphan collection) and sweeps against a model of the retained snapshots, with puts and deletes
 * failing before or after taking effect. Invariant after every step: every file a retained snapshot
 * references exists. At the end, after one fault-free sweep, exactly the referenced files remain.
 */
class SharedFileRegistryPropertyTest {
  private static final int FILES = 16;

  @TempDir Path tmp;

  @Test
  void referencedFilesSurviveEveryFailureAndUnreferencedOnesGo() throws Exception {
    for (int run = 0; run < 3; run++) {
      long seed = System.nanoTime();
      System.out.println("SharedFileRegistryPropertyTest seed=" + seed);
      runOnce(new Random(seed), tmp.resolve("run-" + run), seed);
    }
  }

  private void runOnce(Random random, Path dir, long seed) throws IOException {
    ObjectStore real = new LocalObjectStore(dir);
    FaultyObjectStore store = new FaultyObjectStore(real).failRandomly(random, 0.2);
    Model model = new Model(new SharedFileRegistry(store));
    for (int step = 0; step < 300; step++) {
      store.timing(random.nextBoolean() ? FaultyObjectStore.Timing.BEFORE : FaultyObjectStore.Timing.AFTER);
      model.step(random, store);
      for (String file : model.referenced()) {
        assertThat(real.exists(file)).as("seed %d step %d: %s is referenced", seed, step, file).isTrue();
      }
      assertThat(model.registry.referencedFiles()).as("seed %d step %d", seed, step).isEqualTo(model.referenced());
    }
    store.heal();
    model.registry.sweep();
    assertThat(new TreeSet<>(real.list(""))).as("seed %d", seed).isEqualTo(model.referenced());
  }

  /** The retained snapshots as the job's metadata would list them, and the registry under test. */
  private static final class Model {
    final Map<String, List<String>> retained = new HashMap<>();
    SharedFileRegistry registry;
    int nextId;

    Model(SharedFileRegistry registry) {
      this.registry = registry;
    }

    void step(Random random, FaultyObjectStore store) {
      int action = random.nextInt(10);
      if (action < 5) {
        checkpoint(random, store);
      } else if (action < 8 && !retained.isEmpty()) {
        List<String> ids = new ArrayList<>(new TreeSet<>(retained.keySet()));
        String id = ids.get(random.nextInt(ids.size()));
        retained.remove(id);
        registry.release(id);
      } else if (action == 8) {
        restart(store);
      } else {
        registry.sweep();
      }
    }

    /** Register first, then upload what is new; a failed upload fails the checkpoint. */
    private void checkpoint(Random random, FaultyObjectStore store) {
      String id = "cp-" + nextId++;
      List<String> files = new ArrayList<>();
      for (int i = 1 + random.nextInt(5); i > 0; i--) {
        files.add("shared/" + random.nextInt(FILES) + ".sst");
      }
      try {
        for (String file : registry.register(id, files)) {
          store.put(file, file.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        retained.put(id, files);
      } catch (IOException e) {
        registry.release(id);
      }
    }

    /** A new process: the registry is rebuilt from metadata, then leftovers are collected. */
    private void restart(FaultyObjectStore store) {
      registry = new SharedFileRegistry(store);
      registry.rebuild(retained);
      try {
        registry.collectOrphans("shared/");
      } catch (IOException e) {
        throw new AssertionError("listing does not fail in this test", e);
      }
    }

    Set<String> referenced() {
      Set<String> all = new TreeSet<>();
      retained.values().forEach(all::addAll);
      return all;
    }
  }
}
