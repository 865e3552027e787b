package io.tributary.stream;

/** Checkpoint barrier {@code checkpointId}; ids only grow on a channel. */
public record Barrier(long checkpointId) implements StreamElement {}
