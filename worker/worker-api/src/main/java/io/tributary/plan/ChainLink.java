package io.tributary.plan;

/**
 * A forward connection inside a stage: the output {@code port} of operator {@code from} feeds
 * operator {@code to}.
 *
 * @param port null for the main output, else the name of a side output (late records, dead letters)
 */
public record ChainLink(String from, String port, String to) {}
