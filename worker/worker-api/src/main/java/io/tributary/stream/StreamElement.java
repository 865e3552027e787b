package io.tributary.stream;

/**
 * The closed set of elements that flow through a job. Dispatch with {@code instanceof} patterns or
 * a {@code switch} over the sealed type.
 */
public sealed interface StreamElement permits Record, Watermark, Barrier, EndOfInput, IdleStatus {}
