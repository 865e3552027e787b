package io.tributary.worker.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.protocol.AttemptId;
import io.tributary.worker.kubernetes.PodReconcile.Creation;
import io.tributary.worker.kubernetes.PodReconcile.Demand;
import io.tributary.worker.kubernetes.PodReconcile.Phase;
import io.tributary.worker.kubernetes.PodReconcile.PodState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules that decide what happens to a pool's pods, one case at a time (pods of up to 4 slots). */
class PodReconcileTest {
  private static final AttemptId BIDS_3 = new AttemptId("p--bids", 3);
  private static final AttemptId BIDS_4 = new AttemptId("p--bids", 4);
  private static final AttemptId CLICKS_1 = new AttemptId("p--clicks", 1);

  /** The inputs of one reconcile, built up case by case. */
  private static final class World {
    final List<PodState> pods = new ArrayList<>();
    final Map<AttemptId, Demand> demands = new LinkedHashMap<>();
    final Map<String, AttemptId> made = new HashMap<>();
    final Set<AttemptId> routed = new HashSet<>();
    final Set<AttemptId> ended = new HashSet<>();
    final Set<String> lost = new HashSet<>();
    boolean leading = true;
    boolean leftoversExpired;
    int maxPods;

    /** A live pod of {@code attempt} that this pool made. */
    World mine(String name, AttemptId attempt, int slots) {
      made.put(name, attempt);
      return pod(name, attempt, slots, Phase.LIVE, null);
    }

    World pod(String name, AttemptId attempt, int slots, Phase phase, String reason) {
      pods.add(new PodState(name, attempt, slots, phase, reason));
      return this;
    }

    World wants(AttemptId attempt, int slots, boolean granted) {
      demands.put(attempt, new Demand(slots, granted));
      return this;
    }

    PodReconcile.Outcome reconcile() {
      return PodReconcile.of(new PodReconcile.Inputs(pods, demands, made, routed, ended, lost, leading,
          leftoversExpired, maxPods, 4));
    }
  }

  @Test
  void anAttemptThatNeedsSlotsGetsPodsForWhatItsPodsLack() {
    World w = new World().wants(BIDS_3, 10, false).mine("a", BIDS_3, 4);
    var out = w.reconcile();
    assertThat(out.creations()).containsExactly(new Creation(BIDS_3, List.of(3, 3)));
    assertThat(out.deletions()).isEmpty();

    w.mine("b", BIDS_3, 3).mine("c", BIDS_3, 3);
    assertThat(w.reconcile().creations()).as("it has its pods").isEmpty();
  }

  @Test
  void aFailedPodOfAWaitingAttemptIsReplacedAndOneOfAnAttemptThatHasItsSlotsIsNot() {
    World waiting = new World().wants(BIDS_3, 8, false).mine("a", BIDS_3, 4).mine("b", BIDS_3, 4);
    waiting.pods.set(1, new PodState("b", BIDS_3, 4, Phase.ENDED, "failed (Evicted)"));
    var out = waiting.reconcile();
    assertThat(out.deletions()).containsExactly(Map.entry("b", "it failed (Evicted)"));
    assertThat(out.creations()).containsExactly(new Creation(BIDS_3, List.of(4)));

    World running = new World().wants(BIDS_3, 8, true).mine("a", BIDS_3, 4).mine("b", BIDS_3, 4);
    running.lost.add("b");
    out = running.reconcile();
    assertThat(out.deletions()).containsExactly(Map.entry("b", "its worker was lost"));
    assertThat(out.creations()).as("the attempt fails; the next one gets new pods").isEmpty();
  }

  @Test
  void theFirstRuleThatAppliesDecides() {
    World w = new World().wants(BIDS_4, 4, true).mine("new", BIDS_4, 4)
        .pod("earlier-same-number", BIDS_4, 4, Phase.LIVE, null) // another control plane's, same attempt number
        .pod("superseded", BIDS_3, 4, Phase.LIVE, null)
        .pod("orphan", CLICKS_1, 2, Phase.LIVE, null)
        .pod("going", BIDS_3, 4, Phase.GOING, null)
        .pod("leftover", new AttemptId("p--gone", 9), 1, Phase.LIVE, null)
        .pod("unlabelled", null, 0, Phase.LIVE, null)
        .pod("ended", CLICKS_1, 2, Phase.ENDED, "ended");
    w.routed.add(CLICKS_1);
    var out = w.reconcile();
    assertThat(out.deletions()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "earlier-same-number", "an earlier control plane made it for attempt p--bids#4",
        "superseded", "attempt p--bids#4 of its job superseded attempt p--bids#3",
        "ended", "it ended"));
    assertThat(out.creations()).isEmpty();

    w.leftoversExpired = true;
    assertThat(w.reconcile().deletions()).containsEntry("leftover", "no attempt p--gone#9 runs here")
        .containsEntry("unlabelled", "it runs no attempt").doesNotContainKeys("orphan", "new", "going");
  }

  @Test
  void aReleasedAttemptsPodsGoEvenWhenAnotherReplicaLeadsAndNothingElseHappensThen() {
    World w = new World().mine("done", BIDS_3, 4).mine("waiting", CLICKS_1, 2).wants(CLICKS_1, 4, false)
        .pod("failed", BIDS_4, 4, Phase.ENDED, "failed").pod("leftover", null, 0, Phase.LIVE, null);
    w.ended.add(BIDS_3);
    w.lost.add("waiting");
    w.leading = false;
    w.leftoversExpired = true;
    var out = w.reconcile();
    assertThat(out.deletions()).containsExactly(Map.entry("done", "its attempt p--bids#3 is over"));
    assertThat(out.creations()).isEmpty();
  }

  @Test
  void podsAreCreatedUpToTheLimitAllOfAnAttemptsOrNone() {
    World w = new World().wants(BIDS_3, 8, false).wants(CLICKS_1, 1, false).wants(new AttemptId("p--x", 1), 4, false)
        .pod("leftover", null, 0, Phase.LIVE, null) // counts until it goes
        .pod("going", null, 0, Phase.GOING, null); // does not
    w.maxPods = 3;
    var out = w.reconcile();
    assertThat(out.creations()).containsExactly(new Creation(BIDS_3, List.of(4, 4)));
    assertThat(out.blocked()).containsExactly(CLICKS_1, new AttemptId("p--x", 1));

    w.maxPods = 0;
    assertThat(w.reconcile().creations()).as("no limit").hasSize(3);
  }
}
