package io.tributary.checkpoint;

/**
 * Where a source split stood when a checkpoint's barrier left its subtask, and its watermark
 * generator's progress (contract C3), so a restored split resumes with the same watermarks.
 *
 * @param split the split's id ({@link io.tributary.connect.SourceSplit#id()})
 * @param position the reader's {@link io.tributary.connect.SplitReader#position()}; null: from the start
 * @param maxTimestamp largest event time read so far ({@code Long.MIN_VALUE}: none)
 * @param watermark the split's watermark
 * @param sinceWatermark records read since the split's watermark was last recomputed
 * @param ended whether the split had been read to its end
 */
public record SplitState(String split, String position, long maxTimestamp, long watermark, int sinceWatermark,
    boolean ended) {}
