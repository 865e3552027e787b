package io.tributary.state.forst.rocks;

/**
 * What a state can say, cheaply, about the current key without reading it: a write-back cache in
 * front of the state uses it to know a new key has nothing below, so that the key's later misses
 * (new windows, new map keys) need not be read below at all.
 */
public interface KeyPresence {
  /**
   * Whether the current key may have entries in this state; false only when it certainly has none.
   * Opens nothing and reads no file: a key group that was restored but is not open yet may hold it.
   */
  boolean mayHoldCurrentKey();
}
