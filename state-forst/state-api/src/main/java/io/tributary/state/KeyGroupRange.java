package io.tributary.state;

/** A half-open range {@code [start, end)} of key groups. */
public record KeyGroupRange(int start, int end) {
  public KeyGroupRange {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("invalid key group range [" + start + ", " + end + ")");
    }
  }

  public boolean contains(int keyGroup) {
    return keyGroup >= start && keyGroup < end;
  }

  public int size() {
    return end - start;
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
