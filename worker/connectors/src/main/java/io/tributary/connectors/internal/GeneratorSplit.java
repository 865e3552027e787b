package io.tributary.connectors.internal;

import io.tributary.connect.SourceSplit;

/**
 * Slice {@code index} of {@code count} of a generator: it produces the sequence numbers {@code
 * index, index + count, index + 2 * count, ...}.
 */
public record GeneratorSplit(String sourceId, int index, int count) implements SourceSplit {
  public GeneratorSplit {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException("split " + index + " of " + count);
    }
  }

  @Override
  public String id() {
    return sourceId + "-" + index + "-of-" + count;
  }

  /** The split of {@code sourceId} with id {@code id} ({@code <source>-<index>-of-<count>}), or null. */
  public static GeneratorSplit parse(String sourceId, String id) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(sourceId)
        + "-(\\d+)-of-(\\d+)").matcher(id);
    if (!m.matches()) {
      return null;
    }
    int index = Integer.parseInt(m.group(1));
    int count = Integer.parseInt(m.group(2));
    return count >= 1 && index < count ? new GeneratorSplit(sourceId, index, count) : null;
  }

  /** Splits {@code 0..count-1} of a generator. */
  public static java.util.List<GeneratorSplit> all(String sourceId, int count) {
    return java.util.stream.IntStream.range(0, Math.max(1, count))
        .mapToObj(i -> new GeneratorSplit(sourceId, i, Math.max(1, count)))
        .toList();
  }
}
