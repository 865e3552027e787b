package io.tributary.worker.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AlignedWindowsTest {
  /**
   * Timestamps near each other (the cached windows reused) and far apart, against the windows
   * counted out one by one: every window that starts at a multiple of the slide and contains the
   * timestamp, latest start first.
   */
  @Test
  void assignsEveryWindowThatContainsTheTimestamp() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    long[][] shapes = {{10, 10}, {10, 2}, {10, 3}, {3, 10}, {7, 7}, {1, 1}};
    for (long[] shape : shapes) {
      long size = shape[0];
      long slide = shape[1];
      AlignedWindows windows = new AlignedWindows(size, slide);
      long ts = random.nextInt(1000) - 500;
      for (int i = 0; i < 5_000; i++) {
        ts = random.nextInt(4) == 0 ? random.nextInt(1000) - 500 : ts + random.nextInt(3) - 1;
        List<TimeWindow> expected = new ArrayList<>();
        for (long start = Math.floorDiv(ts, slide) * slide; start > ts - size; start -= slide) {
          expected.add(new TimeWindow(start, start + size));
        }
        assertThat(windows.assign(ts)).as("seed %d, size %d, slide %d, ts %d", seed, size, slide, ts)
            .containsExactlyElementsOf(expected);
      }
    }
  }

  /** A window is one object across calls for other slides, as long as it is among the recent ones. */
  @Test
  void givesTheSameWindowObjectToRecordsOfOtherSlides() {
    AlignedWindows windows = new AlignedWindows(10, 2);
    TimeWindow[] first = windows.assign(100); // [100, 110) back to [92, 102)
    TimeWindow[] next = windows.assign(103); // [102, 112) back to [94, 104)
    TimeWindow[] back = windows.assign(101); // the slide of the first call again
    assertThat(next[1]).isSameAs(first[0]);
    assertThat(next[4]).isSameAs(first[3]);
    for (int i = 0; i < first.length; i++) {
      assertThat(back[i]).isSameAs(first[i]);
    }
    // far away: the places were taken by other windows, which are made anew, equal
    windows.assign(100 + 2 * AlignedWindows.RECENT);
    TimeWindow[] again = windows.assign(100);
    assertThat(again[0]).isEqualTo(first[0]).isNotSameAs(first[0]);
  }
}
