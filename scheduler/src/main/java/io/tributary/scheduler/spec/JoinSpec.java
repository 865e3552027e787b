package io.tributary.scheduler.spec;

import java.util.List;

/**
 * An operator's {@code join}: an inner join of two inputs on equal keys. Which pairs join by time
 * depends on what it has: a {@code window} (a window join), {@code between} (an interval join), or
 * neither (a regular join, with an optional {@code stateTtl}).
 *
 * @param left the left input: a source id, an operator id or a side output name
 * @param right the right input
 * @param on the key pairs: the left field of each equals its right field
 * @param window for a window join: both records fall into this window (tumbling, sliding or session)
 * @param between for an interval join: {@code left.ts + lower <= right.ts <= left.ts + upper}
 * @param stateTtlMillis for a regular join: records less than this apart join, and each is
 *     forgotten once the watermark shows no such partner can come; null keeps them forever
 */
public record JoinSpec(
    String left, String right, List<KeyPair> on, WindowSpec window, Bounds between, Long stateTtlMillis) {
  public JoinSpec {
    on = Copies.list(on);
  }

  /** A pair of join keys: {@code left} of the left input equals {@code right} of the right input. */
  public record KeyPair(String left, String right) {}

  /** An interval join's bounds, in milliseconds, either may be negative; {@code lower <= upper}. */
  public record Bounds(long lowerMillis, long upperMillis) {}

  /** The left keys, in order. */
  public List<String> leftKeys() {
    return on == null ? List.of() : on.stream().map(KeyPair::left).toList();
  }

  /** The right keys, in order. */
  public List<String> rightKeys() {
    return on == null ? List.of() : on.stream().map(KeyPair::right).toList();
  }
}
