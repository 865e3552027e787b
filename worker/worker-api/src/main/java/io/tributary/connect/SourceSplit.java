package io.tributary.connect;

/** A unit of source parallelism (a file, a Kafka partition, a slice of a generator). */
public interface SourceSplit {
  /** Stable and unique within the source, for example {@code events.jsonl} or {@code bids-3}. */
  String id();
}
