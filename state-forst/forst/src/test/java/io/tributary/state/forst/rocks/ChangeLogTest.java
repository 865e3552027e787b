package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeLogTest {
  @Test
  void replayGivesTheWritesInOrder() throws IOException {
    ChangeLog log = new ChangeLog(1 << 20);
    byte[] key = bytes("key-and-garbage");
    log.put(key, 3, bytes("v1"), 2);
    log.merge(key, 3, bytes("+x"), 2);
    log.delete(key, 3);
    log.put(bytes("other"), 5, new byte[0], 0);

    List<String> seen = new ArrayList<>();
    byte[] taken = log.take();
    int n = ChangeLog.replay(taken, 0, taken.length, recorder(seen));

    assertThat(n).isEqualTo(4);
    assertThat(seen).containsExactly("put key=v1", "merge key=+x", "delete key", "put other=");
    assertThat(log.size()).isZero();
  }

  @Test
  void replayReadsJustItsRange() throws IOException {
    ChangeLog a = new ChangeLog(1 << 20);
    a.put(bytes("a"), 1, bytes("1"), 1);
    ChangeLog b = new ChangeLog(1 << 20);
    b.delete(bytes("b"), 1);
    byte[] first = a.take();
    byte[] second = b.take();
    byte[] object = new byte[first.length + second.length];
    System.arraycopy(first, 0, object, 0, first.length);
    System.arraycopy(second, 0, object, first.length, second.length);

    List<String> seen = new ArrayList<>();
    ChangeLog.replay(object, first.length, second.length, recorder(seen));

    assertThat(seen).containsExactly("delete b");
  }

  @Test
  void aLogPastItsLimitStopsRecordingUntilCleared() {
    ChangeLog log = new ChangeLog(100);
    log.put(bytes("k"), 1, new byte[60], 60);
    assertThat(log.overflowed()).isFalse();
    log.put(bytes("k"), 1, new byte[60], 60);

    assertThat(log.overflowed()).isTrue();
    assertThat(log.size()).isZero();
    log.delete(bytes("k"), 1);
    assertThat(log.size()).isZero();

    log.clear();
    assertThat(log.overflowed()).isFalse();
    log.delete(bytes("k"), 1);
    assertThat(log.size()).isPositive();
  }

  @Test
  void corruptLogsAreRefusedWithAReason() {
    ChangeLog log = new ChangeLog(1 << 20);
    log.put(bytes("key"), 3, bytes("value"), 5);
    byte[] taken = log.take();

    assertThatThrownBy(() -> ChangeLog.replay(taken, 0, taken.length - 2, recorder(new ArrayList<>())))
        .isInstanceOf(IOException.class).hasMessageContaining("left");
    byte[] badOp = Arrays.copyOf(taken, taken.length);
    badOp[0] = 'X';
    assertThatThrownBy(() -> ChangeLog.replay(badOp, 0, badOp.length, recorder(new ArrayList<>())))
        .isInstanceOf(IOException.class).hasMessageContaining("unknown change-log op");
  }

  private static ChangeLog.Target recorder(List<String> seen) {
    return new ChangeLog.Target() {
      @Override
      public void put(byte[] key, byte[] value) {
        seen.add("put " + text(key) + "=" + text(value));
      }

      @Override
      public void merge(byte[] key, byte[] value) {
        seen.add("merge " + text(key) + "=" + text(value));
      }

      @Override
      public void delete(byte[] key) {
        seen.add("delete " + text(key));
      }
    };
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
