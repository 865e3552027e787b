package io.tributary.connectors.internal;

import io.tributary.connect.SourceSplit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Slice {@code index} of {@code count} of a generator: it produces the sequence numbers {@code
 * index, index + count, index + 2 * count, ...}.
 *
 * @param startTime the event time (epoch ms) of sequence number 0 when it was chosen as the job
 *     started (an unbounded generator without {@code startTime}: the wall clock then), so that a
 *     checkpoint's split, which is restored by its id, carries it and a restored reader continues
 *     the same event times; null when the source's configuration fixes it ({@link GeneratorStart})
 */
public record GeneratorSplit(String sourceId, int index, int count, Long startTime) implements SourceSplit {
  public GeneratorSplit {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException("split " + index + " of " + count);
    }
  }

  /** Slice {@code index} of {@code count}, its start fixed by the source's configuration. */
  public GeneratorSplit(String sourceId, int index, int count) {
    this(sourceId, index, count, null);
  }

  /** {@code <source>-<index>-of-<count>}, followed by {@code @<startTime>} when the split carries one. */
  @Override
  public String id() {
    return sourceId + "-" + index + "-of-" + count + (startTime == null ? "" : "@" + startTime);
  }

  /** The split of {@code sourceId} with id {@code id} (as {@link #id()} makes it), or null. */
  public static GeneratorSplit parse(String sourceId, String id) {
    Matcher m = Pattern.compile(Pattern.quote(sourceId) + "-(\\d{1,9})-of-(\\d{1,9})(?:@(-?\\d{1,19}))?").matcher(id);
    if (!m.matches()) {
      return null;
    }
    int index = Integer.parseInt(m.group(1));
    int count = Integer.parseInt(m.group(2));
    if (count < 1 || index >= count) {
      return null;
    }
    Long start = null;
    if (m.group(3) != null) {
      try {
        start = Long.parseLong(m.group(3));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return new GeneratorSplit(sourceId, index, count, start);
  }

  /** Splits {@code 0..count-1} of a generator, their start fixed by the source's configuration. */
  public static List<GeneratorSplit> all(String sourceId, int count) {
    return all(sourceId, count, null);
  }

  /** Splits {@code 0..count-1} of a generator, all carrying {@code startTime} (may be null). */
  public static List<GeneratorSplit> all(String sourceId, int count, Long startTime) {
    int n = Math.max(1, count);
    return IntStream.range(0, n).mapToObj(i -> new GeneratorSplit(sourceId, i, n, startTime)).toList();
  }
}
