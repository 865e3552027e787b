package io.tributary.connect;

/**
 * What a source's external system holds for a job, asked of the system itself.
 *
 * @param pending records beyond the job's positions: what it has yet to read
 * @param written records ever appended to the source (a Kafka topic's end offsets, summed): a
 *     counter whose growth over time is the rate at which the job's input arrives
 * @param splits how many splits the source has now (a Kafka topic's partitions): more subtasks
 *     than that would have nothing to read; 0 when it cannot tell
 */
public record SourceBacklog(long pending, long written, int splits) {}
