package io.tributary.stream;

/**
 * The sender's inputs went idle (no records for longer than idleTimeout) or became active again.
 * An idle channel does not hold back the receiver's watermark.
 */
public record IdleStatus(boolean idle) implements StreamElement {
  public static final IdleStatus IDLE = new IdleStatus(true);
  public static final IdleStatus ACTIVE = new IdleStatus(false);
}
