package io.tributary.stream;

/** The last element of a channel. Nothing follows it. */
public record EndOfInput() implements StreamElement {
  public static final EndOfInput INSTANCE = new EndOfInput();
}
