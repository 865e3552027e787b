package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The lifecycle's transition table: declared moves pass the guard, every other one is refused. */
class ObservedStateTest {
  /** The table as the class documents it, written out independently. */
  private static final Set<String> DECLARED = Set.of(
      "CREATED->DEPLOYING",
      "DEPLOYING->RUNNING", "DEPLOYING->RECOVERING", "DEPLOYING->RESCALING", "DEPLOYING->UPDATING",
      "DEPLOYING->STOPPING", "DEPLOYING->FAILED",
      "RUNNING->RECOVERING", "RUNNING->RESCALING", "RUNNING->UPDATING", "RUNNING->STOPPING", "RUNNING->FINISHED",
      "RUNNING->FAILED",
      "RECOVERING->RUNNING", "RECOVERING->DEPLOYING", "RECOVERING->RESCALING", "RECOVERING->UPDATING",
      "RECOVERING->STOPPING", "RECOVERING->FAILED",
      "RESCALING->DEPLOYING", "RESCALING->FAILED",
      "UPDATING->DEPLOYING", "UPDATING->FAILED",
      "STOPPING->STOPPED", "STOPPING->FAILED", "STOPPING->IDLE",
      "IDLE->DEPLOYING", "IDLE->STOPPED",
      "STOPPED->DEPLOYING",
      "FINISHED->DEPLOYING", "FINISHED->STOPPED",
      "FAILED->DEPLOYING", "FAILED->STOPPED");

  @Test
  void theGuardAllowsExactlyTheDeclaredMoves() {
    Set<String> allowed = new TreeSet<>();
    for (ObservedState from : ObservedState.values()) {
      for (ObservedState to : ObservedState.values()) {
        String move = from + "->" + to;
        if (from.canMoveTo(to)) {
          allowed.add(move);
          assertThat(from.checkMoveTo(to)).isEqualTo(to);
        } else {
          assertThatThrownBy(() -> from.checkMoveTo(to)).as(move).isInstanceOf(IllegalStateException.class)
              .hasMessageContaining(from + " -> " + to);
        }
      }
    }
    assertThat(allowed).containsExactlyInAnyOrderElementsOf(DECLARED);
  }

  @Test
  void anIllegalMoveNamesTheMovesAllowedInstead() {
    assertThatThrownBy(() -> ObservedState.STOPPED.checkMoveTo(ObservedState.RUNNING))
        .hasMessageContaining("illegal job state transition STOPPED -> RUNNING")
        .hasMessageContaining("[DEPLOYING]");
  }

  @Test
  void everyStateIsReachableFromCreatedAndEveryStateCanRunAgain() {
    assertThat(reachable(ObservedState.CREATED)).containsExactlyInAnyOrder(ObservedState.values());
    for (ObservedState s : ObservedState.values()) {
      assertThat(reachable(s)).as("from %s", s).contains(ObservedState.RUNNING);
    }
  }

  @Test
  void activeStatesHaveARunAndOnlyTheRunnerDrivenOnesFollowIt() {
    EnumSet<ObservedState> active = EnumSet.noneOf(ObservedState.class);
    EnumSet<ObservedState> driven = EnumSet.noneOf(ObservedState.class);
    for (ObservedState s : ObservedState.values()) {
      if (s.active()) {
        active.add(s);
      }
      if (s.runnerDriven()) {
        driven.add(s);
      }
    }
    assertThat(active).containsExactlyInAnyOrder(ObservedState.DEPLOYING, ObservedState.RUNNING,
        ObservedState.RECOVERING, ObservedState.RESCALING, ObservedState.UPDATING, ObservedState.STOPPING);
    assertThat(driven).containsExactlyInAnyOrder(ObservedState.DEPLOYING, ObservedState.RUNNING,
        ObservedState.RECOVERING);
  }

  @Test
  void afterAControlPlaneRestartActiveJobsRecoverOrStopAndJobsAtRestStay() {
    for (ObservedState s : ObservedState.values()) {
      ObservedState running = s.afterControlPlaneRestart(DesiredState.RUNNING);
      ObservedState stopped = s.afterControlPlaneRestart(DesiredState.STOPPED);
      if (s.active() || s == ObservedState.CREATED) {
        assertThat(running).as("%s, desired RUNNING", s).isEqualTo(ObservedState.RECOVERING);
        assertThat(stopped).as("%s, desired STOPPED", s).isEqualTo(ObservedState.STOPPED);
      } else {
        assertThat(running).as("%s stays", s).isEqualTo(s);
        assertThat(stopped).as("%s stays", s).isEqualTo(s);
      }
    }
  }

  private static Set<ObservedState> reachable(ObservedState from) {
    Set<ObservedState> seen = EnumSet.of(from);
    Deque<ObservedState> todo = new ArrayDeque<>(seen);
    while (!todo.isEmpty()) {
      for (ObservedState n : todo.pop().next()) {
        if (seen.add(n)) {
          todo.push(n);
        }
      }
    }
    return seen;
  }
}
