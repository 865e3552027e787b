package io.tributary.state.forst.statecache;

import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import io.tributary.state.forst.statecache.Codecs.Acc;
import io.tributary.state.forst.statecache.Codecs.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Random operations on every kind of state of one backend; each returns what it observed as a
 * canonical string, so that backends given the same operations can be compared. Window updates
 * either change the accumulator they read in place and put it back, or add an accumulator of
 * their own without reading ({@link WindowState#add}), as the window operator does; a map of
 * accumulators is put to and added to ({@link MapState#add}) likewise, as the stream join keeps records.
 */
final class RandomOps {
  /** One operation, drawn once and applied to several backends. */
  record Op(int kind, long key, long arg, Window window, String mapKey) {}

  private final KeyedStateBackend backend;
  private final ValueState<Long> value;
  private final MapState<String, Long> map;
  private final ListState<String> list;
  private final WindowState<Window, Acc> windows;
  private final MapState<String, Acc> accs;
  /** What the last add answered: whether the window or map entry had an accumulator. */
  boolean lastAddHad;

  RandomOps(KeyedStateBackend backend) {
    this.backend = backend;
    this.value = backend.valueState("v", Codecs.LONG);
    this.map = backend.mapState("m", Codecs.STRING, Codecs.LONG);
    this.list = backend.listState("l", Codecs.STRING);
    this.windows = backend.windowState("w", Codecs.WINDOW, Codecs.ACC, RandomOps::combine);
    this.accs = backend.mapState("ma", Codecs.STRING, Codecs.ACC, RandomOps::combine);
  }

  private static void combine(Acc into, Acc delta) {
    into.count += delta.count;
    into.sum += delta.sum;
  }

  /** Whether {@code op} adds (so that {@link #lastAddHad} is its answer). */
  static boolean adds(Op op) {
    return op.kind() == 17 || op.kind() == 18 || op.kind() == 20;
  }

  static Op draw(Random r, int keys) {
    long start = r.nextInt(5) * 10L;
    return new Op(r.nextInt(25), r.nextInt(keys), r.nextInt(1000), new Window(start, start + 10),
        "k" + r.nextInt(6));
  }

  /** Applies {@code op}; returns what it read (empty for pure writes). */
  String apply(Op op) {
    backend.setCurrentKey(Key.of(op.key()));
    return switch (op.kind()) {
      case 0 -> write(() -> value.update(op.arg()));
      case 1 -> write(value::clear);
      case 2 -> String.valueOf(value.value());
      case 3 -> write(() -> map.put(op.mapKey(), op.arg()));
      case 4 -> write(() -> map.remove(op.mapKey()));
      case 5 -> map.get(op.mapKey()) + " " + map.contains(op.mapKey());
      case 6 -> sorted(map.entries()) + " " + map.isEmpty();
      case 7 -> write(map::clear);
      case 8 -> write(() -> list.add("e" + op.arg()));
      case 9 -> write(() -> list.update(op.arg() % 3 == 0 ? List.of() : List.of("u" + op.arg(), "v")));
      case 10 -> list.get().toString();
      case 11 -> write(list::clear);
      case 12, 13 -> updateWindow(op);
      case 14 -> write(() -> windows.remove(op.window()));
      case 15 -> listWindows();
      case 17, 18 -> write(() -> lastAddHad = windows.add(op.window(), new Acc(1, op.arg())));
      case 19 -> write(() -> accs.put(op.mapKey(), new Acc(op.arg(), op.arg())));
      case 20 -> write(() -> lastAddHad = accs.add(op.mapKey(), new Acc(1, op.arg())));
      case 21 -> accs.get(op.mapKey()) + " " + accs.contains(op.mapKey());
      case 22 -> sorted(accs.entries()) + " " + accs.isEmpty();
      case 23 -> write(() -> accs.remove(op.mapKey()));
      case 24 -> op.arg() % 4 == 0 ? write(accs::clear) : updateAcc(op);
      default -> String.valueOf(windows.get(op.window()));
    };
  }

  private static String write(Runnable change) {
    change.run();
    return "";
  }

  /** Everything the current key {@code key} holds, canonically. */
  String dump(long key) {
    backend.setCurrentKey(Key.of(key));
    return value.value() + " | " + sorted(map.entries()) + " | " + list.get() + " | " + listWindows() + " | "
        + sorted(accs.entries());
  }

  private String updateWindow(Op op) {
    Acc acc = windows.get(op.window());
    String before = String.valueOf(acc);
    if (acc == null) {
      acc = new Acc(0, 0);
    }
    acc.count++;
    acc.sum += op.arg();
    windows.put(op.window(), acc);
    return before;
  }

  private String updateAcc(Op op) {
    Acc acc = accs.get(op.mapKey());
    String before = String.valueOf(acc);
    if (acc == null) {
      acc = new Acc(0, 0);
    }
    acc.count++;
    acc.sum += op.arg();
    accs.put(op.mapKey(), acc);
    return before;
  }

  private String listWindows() {
    Map<String, String> out = new TreeMap<>();
    for (Window w : windows.windows()) {
      out.put(w.start() + "-" + w.end(), String.valueOf(windows.get(w)));
    }
    return out.toString();
  }

  private static String sorted(Iterable<? extends Map.Entry<String, ?>> entries) {
    List<String> out = new ArrayList<>();
    entries.forEach(e -> out.add(e.getKey() + "=" + e.getValue()));
    out.sort(null);
    return out.toString();
  }
}
