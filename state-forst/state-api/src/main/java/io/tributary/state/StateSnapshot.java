package io.tributary.state;

import java.util.Map;

/**
 * A durable snapshot of one stateful operator's keyed state for a range of key groups: small enough
 * to go into checkpoint metadata. Every key group's state is described by one manifest object in the
 * object store, so state can be restored into any key-group range (rescaling) by picking manifests.
 *
 * @param backend the backend that wrote it ({@code forst} or {@code heap})
 * @param checkpointId the checkpoint it belongs to
 * @param range the key groups it covers
 * @param manifests key group to the object name of its manifest; key groups without state are absent
 * @param stateBytes total size of the state the manifests describe
 * @param uploadedBytes bytes uploaded by this snapshot (new files only: contract C6)
 */
public record StateSnapshot(String backend, long checkpointId, KeyGroupRange range, Map<Integer, String> manifests,
    long stateBytes, long uploadedBytes) {
  public StateSnapshot {
    manifests = Map.copyOf(manifests);
  }
}
