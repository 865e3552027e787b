package io.tributary.worker.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.InMemoryObjectStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** What a parked backend may be claimed with, and when it is closed instead. */
class StateParkingTest {
  private static final KeyGroupRange LOW = new KeyGroupRange(0, 64);
  private static final KeyGroupRange HIGH = new KeyGroupRange(64, 128);

  private final InMemoryObjectStore store = new InMemoryObjectStore();

  @Test
  void onlyTheSnapshotItsStateIsExactlyClaimsABackend() throws Exception {
    try (StateParking parking = new StateParking()) {
      StateParking.Factory f = factory(parking);
      KeyedStateBackend low = f.create("job", "op", LOW, 128);
      CompletableFuture<StateSnapshot> at = write(low, 7);
      StateSnapshot other = write(f.create("job", "op", HIGH, 128), 7).get();
      f.park("w", "job", "op", low, at);

      assertThat(f.claim("w2", "job", "op", LOW, 128, List.of(at.get(), other))).as("another worker").isNull();
      assertThat(f.claim("w", "job", "op", new KeyGroupRange(0, 32), 128, List.of(at.get(), other)))
          .as("part of its range").isNull();
      assertThat(parking.parked()).isEqualTo(1);
      assertThat(f.claim("w", "job", "op", LOW, 128, List.of(at.get(), other))).isSameAs(low);
      assertThat(parking.parked()).isZero();
      assertThat(parking.adopted()).isEqualTo(1);
      low.close();
    }
  }

  @Test
  void aBackendParkedAtAnotherCheckpointIsClosedWhenItsRangeIsClaimed() throws Exception {
    try (StateParking parking = new StateParking()) {
      StateParking.Factory f = factory(parking);
      KeyedStateBackend low = f.create("job", "op", LOW, 128);
      CompletableFuture<StateSnapshot> older = write(low, 7);
      CompletableFuture<StateSnapshot> newer = write(low, 8);
      f.park("w", "job", "op", low, newer);

      assertThat(f.claim("w", "job", "op", LOW, 128, List.of(older.get()))).isNull();
      assertThat(parking.parked()).isZero();
      assertThatThrownBy(() -> low.valueState("v", LongCodec.INSTANCE)).as("closed").isInstanceOf(RuntimeException.class);
    }
  }

  @Test
  void whatNobodyClaimsIsClosedAfterTheHold() throws Exception {
    try (StateParking parking = new StateParking(Duration.ofMillis(1))) {
      StateParking.Factory f = factory(parking);
      KeyedStateBackend low = f.create("job", "op", LOW, 128);
      f.park("w", "job", "op", low, write(low, 7));
      // the expiry takes it out of the parking, then closes it: wait for both
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while ((parking.parked() > 0 || isOpen(low)) && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
      assertThat(parking.parked()).isZero();
      assertThatThrownBy(() -> low.valueState("v", LongCodec.INSTANCE)).as("closed").isInstanceOf(RuntimeException.class);
    }
  }

  private static boolean isOpen(KeyedStateBackend backend) {
    try {
      backend.valueState("v", LongCodec.INSTANCE);
      return true;
    } catch (RuntimeException closed) {
      return false;
    }
  }

  private StateParking.Factory factory(StateParking parking) {
    Map<String, StateBackendFactory> wrapped = parking.wrap(Map.of("heap", new HeapStateBackendFactory(store)));
    return (StateParking.Factory) wrapped.get("heap");
  }

  /** Writes a value under a key of the backend's range and snapshots it as checkpoint {@code id}. */
  private static CompletableFuture<StateSnapshot> write(KeyedStateBackend backend, long id) {
    for (long k = 0; ; k++) {
      Key key = Key.of(k);
      if (backend.keyGroupRange().contains(key.keyGroup(128))) {
        backend.setCurrentKey(key);
        backend.valueState("v", LongCodec.INSTANCE).update(id);
        return backend.snapshot(id);
      }
    }
  }
}
