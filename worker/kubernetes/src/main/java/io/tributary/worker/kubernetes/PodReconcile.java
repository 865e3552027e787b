package io.tributary.worker.kubernetes;

import io.tributary.protocol.AttemptId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a pool's pods should become, as a pure function of what they are and what the control plane
 * needs ({@link #of}). Each live pod is kept or deleted by the first rule that applies:
 *
 * <ol>
 *   <li>a pod of an attempt this pool {@linkplain Inputs#ended ended} (released) is deleted, leading
 *       or not; no other rule applies while the pool does not lead (another replica does);
 *   <li>a pod whose worker the pool lost is deleted;
 *   <li>a pod of an attempt that {@linkplain Inputs#demands needs} pods is kept if this pool made it
 *       ({@linkplain Inputs#made made}), else deleted (an earlier control plane's, under the same
 *       number);
 *   <li>a pod of an attempt the pool {@linkplain Inputs#routed has slots for} (taken over, or kept as
 *       an orphan its workers still run) or let go of for the next leader is kept;
 *   <li>a pod of an attempt older than one of the same job that is needed or routed is deleted;
 *   <li>any other pod (no part of any attempt here) is kept while leftovers may still be claimed,
 *       then deleted.
 * </ol>
 *
 * Before rules 2 to 6, a pod that failed or ended is deleted. Pods being deleted are left alone and
 * counted nowhere.
 * Then, in the order the demands came, each attempt that needs pods and has not {@linkplain
 * Demand#granted got its slots} gets new pods for the slots its kept pods lack ({@link
 * WorkerPods#split}), all of them or none if they would take the pool over its pod limit: such an
 * attempt is {@linkplain Outcome#blocked blocked}. So a pod of a waiting attempt that fails is
 * replaced; one of an attempt that got its slots is not (the attempt fails and the next one gets new
 * pods).
 */
final class PodReconcile {
  private PodReconcile() {}

  enum Phase { LIVE, ENDED, GOING }

  /** A pod of the pool: its attempt (null if it says none), slots, phase and why it ended. */
  record PodState(String name, AttemptId attempt, int slots, Phase phase, String reason) {}

  /** What an attempt asked for, and whether it has it (then its pods are not replaced). */
  record Demand(int slots, boolean granted) {}

  /**
   * @param pods the pool's pods, as the API server lists them
   * @param demands the attempts that asked for pods and are not over, in the order they asked
   * @param made the pods this pool made, by name, with their attempts
   * @param routed the attempts the pool has slots for, and those it let go of for the next leader
   * @param ended attempts this pool released: their pods go
   * @param lost pods whose workers the pool lost
   * @param leading whether this replica leads (else it only deletes the pods of attempts it ended)
   * @param leftoversExpired whether pods of no attempt here are deleted now (the pool has led for its
   *     leftover grace)
   * @param maxPods the most live pods (0: no limit)
   * @param slotsPerPod the most slots of a pod
   */
  record Inputs(List<PodState> pods, Map<AttemptId, Demand> demands, Map<String, AttemptId> made,
      Set<AttemptId> routed, Set<AttemptId> ended, Set<String> lost, boolean leading, boolean leftoversExpired,
      int maxPods, int slotsPerPod) {}

  /** New pods of {@code slots} slots each for {@code attempt}. */
  record Creation(AttemptId attempt, List<Integer> slots) {}

  /**
   * @param deletions pods to delete, by name, with why
   * @param creations pods to create, in order
   * @param blocked attempts that need pods the pod limit does not let the pool create
   */
  record Outcome(Map<String, String> deletions, List<Creation> creations, Set<AttemptId> blocked) {}

  static Outcome of(Inputs in) {
    Map<String, String> deletions = new LinkedHashMap<>();
    Map<AttemptId, Integer> keptSlots = new HashMap<>();
    int live = 0;
    for (PodState p : in.pods()) {
      if (p.phase() == Phase.GOING) {
        continue;
      }
      String why = deletion(p, in);
      if (why != null) {
        deletions.put(p.name(), why);
      } else if (p.phase() == Phase.LIVE) {
        live++;
        if (p.attempt() != null) {
          keptSlots.merge(p.attempt(), p.slots(), Integer::sum);
        }
      }
    }
    List<Creation> creations = new ArrayList<>();
    Set<AttemptId> blocked = new LinkedHashSet<>();
    if (in.leading()) {
      for (Map.Entry<AttemptId, Demand> d : in.demands().entrySet()) {
        int lacking = d.getValue().slots() - keptSlots.getOrDefault(d.getKey(), 0);
        if (d.getValue().granted() || lacking <= 0) {
          continue;
        }
        List<Integer> pods = WorkerPods.split(lacking, in.slotsPerPod());
        if (in.maxPods() > 0 && live + pods.size() > in.maxPods()) {
          blocked.add(d.getKey());
          continue;
        }
        live += pods.size();
        creations.add(new Creation(d.getKey(), pods));
      }
    }
    return new Outcome(deletions, creations, blocked);
  }

  /** Why a pod goes, or null if it stays. */
  private static String deletion(PodState p, Inputs in) {
    AttemptId a = p.attempt();
    if (a != null && in.ended().contains(a)) {
      return "its attempt " + a + " is over";
    }
    if (!in.leading()) {
      return null;
    }
    if (p.phase() == Phase.ENDED) {
      return "it " + (p.reason() == null ? "ended" : p.reason());
    }
    if (in.lost().contains(p.name())) {
      return "its worker was lost";
    }
    if (a != null && in.demands().containsKey(a)) {
      return a.equals(in.made().get(p.name())) ? null : "an earlier control plane made it for attempt " + a;
    }
    if (a != null && in.routed().contains(a)) {
      return null;
    }
    AttemptId newer = a == null ? null : newer(a, in);
    if (newer != null) {
      return "attempt " + newer + " of its job superseded attempt " + a;
    }
    if (in.leftoversExpired()) {
      return a == null ? "it runs no attempt" : "no attempt " + a + " runs here";
    }
    return null;
  }

  private static AttemptId newer(AttemptId a, Inputs in) {
    Set<AttemptId> current = new LinkedHashSet<>(in.demands().keySet());
    current.addAll(in.routed());
    return current.stream().filter(c -> c.job().equals(a.job()) && c.attempt() > a.attempt()).findFirst()
        .orElse(null);
  }
}
