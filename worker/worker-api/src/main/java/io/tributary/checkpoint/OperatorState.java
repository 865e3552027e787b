package io.tributary.checkpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tributary.state.StateSnapshot;

/**
 * One operator instance's part of a checkpoint.
 *
 * @param watermark the operator's event-time watermark when the barrier passed it
 * @param keyed its keyed state, or null when it has none
 * @param timers the object holding its serialized timers, or null when it has none
 * @param committable what its sink writer pre-committed (contract C10), or null
 * @param inFlight the records in flight to it at an unaligned checkpoint (it heads its task's chain
 *     and was fed some), or null (then left out of the JSON: aligned checkpoints' metadata is as it
 *     was before unaligned ones existed)
 */
public record OperatorState(long watermark, StateSnapshot keyed, String timers, String committable,
    @JsonInclude(JsonInclude.Include.NON_NULL) InFlightState inFlight) {
  public OperatorState(long watermark, StateSnapshot keyed, String timers, String committable) {
    this(watermark, keyed, timers, committable, null);
  }

  /** This state with the records in flight to the operator. */
  public OperatorState withInFlight(InFlightState records) {
    return new OperatorState(watermark, keyed, timers, committable, records);
  }
}
