package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.Timer;
import java.io.IOException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The event-time timers of one keyed operator instance, on the heap: a priority queue ordered by
 * time ({@link TimerHeap}), deduplicated per (key, namespace, time) by a hash set of the live
 * timers ({@link TimerSet}), each of which is its own entry in the queue, so a deleted timer leaves
 * both at once. Timers with the same time fire in no particular order.
 *
 * <p>The runtime task drives it: for a new watermark {@code w} it calls {@link #pollDue(long)}
 * until it returns null (firing each timer through {@code Operator.onTimer}, and free to stop
 * between two timers while downstream is backpressured), then {@link #advanceWatermark(long)}
 * and {@code Operator.onWatermark}. As in Flink, {@link #currentWatermark()} already reads
 * {@code w} while the timers due at {@code w} fire, so records handled between two timers see
 * the new watermark too.
 *
 * <p>{@link #snapshot} serializes the live timers and the watermark, one section per key group
 * with an index up front ({@link TimerSnapshotFormat}); {@link #restore} reads them back into a
 * fresh service, keeping the sections of the key groups it owns, so a snapshot taken at one
 * parallelism restores at another. <b>Restore is lazy</b> and costs O(key groups), not O(timers):
 * the owned sections stay undecoded ({@link TimerSection} cursors), merged by time with the queue
 * as timers are polled or {@link #nextTimerTime()} needs the earliest one; on equal times the
 * restored timer goes first. Each section's number of timers and earliest time (from the index;
 * in version 2, the section's first bytes) are all that {@link #nextTimerTime()}, {@link #size()}
 * and the order of the sections need: a section's first timer is decoded only when it is itself
 * needed, by {@link #pollDue} once it is due, by the check of a section's head against tombstones
 * (below; only while there are any), or by a snapshot. Restored from a {@link
 * TimerSnapshotSource}, it reads no more than the snapshot's header and index either (version 3):
 * a section's bytes are read (once, exactly its range) when its first timer is decoded. Until
 * every restored timer has been decoded:
 *
 * <ul>
 *   <li>a timer registered again after the restore fires once (taking it from its section removes
 *       it from the live timers and the queue);
 *   <li>deleting a timer that may still be undecoded (not earlier than every undecoded one)
 *       leaves a tombstone that drops it when decoded; registering it again clears the tombstone,
 *       and tombstones earlier than every undecoded timer are swept as their number doubles;
 *   <li>{@link #size()} may count a timer that was registered or deleted since the restore and is
 *       still undecoded one time too many; it is exact once the restored timers are decoded;
 *   <li>a snapshot holds exactly the live timers: the task thread copies the cursors (not the
 *       timers), and the snapshot's supplier decodes the rest, one key group at a time, reading
 *       the sections that were not read yet.
 * </ul>
 *
 * <p><b>Sections read by snapshots.</b> The task thread's cursor over a section and the copies
 * snapshots take share its bytes ({@link SectionBytes}): read at most once, by whichever thread
 * needs them first, and held once. The supplier of {@link #snapshotLater} reads them off the task
 * thread, possibly long after the restore, and this is safe: the checkpoint restored from stays
 * retained (its objects readable) until a newer checkpoint completes, and that one cannot complete
 * before the supplier of this service's snapshot for it has finished, which read every section
 * the task could still need (restore only goes into a fresh service, so no section is added
 * later). A section that cannot be read fails what needed it ({@link #pollDue}, {@link
 * #nextTimerTime()} with tombstones, a snapshot's supplier) with an {@link
 * java.io.UncheckedIOException} naming the timer object and key group; it is tried again when
 * needed again.
 *
 * <p>Used by the task thread only; the suppliers of {@link #snapshotLater} run on any thread.
 */
public final class HeapTimerService implements TaskTimers {
  private static final Comparator<TimerSection> BY_HEAD_TIME = Comparator.comparingLong(TimerSection::headTime);
  /** Recently registered namespaces, so timers of the same window share one namespace object. */
  private static final int RECENT_NAMESPACES = 8;

  private final KeyedStateBackend backend;
  /** The live timers, in time order: a snapshot copies its arrays, so its task-thread part is memory copies. */
  private final TimerHeap queue = new TimerHeap();
  /** The live timers, each its own entry in {@link #queue}. */
  private final TimerSet live = new TimerSet();
  /** Restored timers not decoded yet, by the time of their head. */
  private final PriorityQueue<TimerSection> sections = new PriorityQueue<>(BY_HEAD_TIME);
  /** Timers deleted while they may still be undecoded in {@link #sections}. */
  private final Set<Timer> tombstones = new HashSet<>();
  private final Object[] recentNamespaces = new Object[RECENT_NAMESPACES];
  private int nextRecent;
  private int tombstoneSweepAt = 1024;
  /** Timers left in {@link #sections}. */
  private long undecoded;
  private long watermark = Long.MIN_VALUE;
  /** Whether timers were registered, deleted or polled, or the watermark moved: restore is too late. */
  private boolean used;
  private boolean restored;

  /** Timers scoped to {@code backend}'s current key. */
  public HeapTimerService(KeyedStateBackend backend) {
    this.backend = backend;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the backend has no current key
   */
  @Override
  public void register(Object namespace, long time) {
    TimerHeap.Entry timer = new TimerHeap.Entry(requireKey(), shared(namespace), time);
    used = true;
    if (!tombstones.isEmpty()) {
      tombstones.remove(timer);
    }
    addLive(timer);
  }

  private void addLive(TimerHeap.Entry timer) {
    if (live.addIfAbsent(timer) == null) {
      queue.add(timer);
    }
  }

  /** Removes {@code timer} from the live timers and the queue, if it is there. */
  private void removeLive(Timer timer) {
    TimerHeap.Entry e = live.remove(timer);
    if (e != null) {
      queue.remove(e);
    }
  }

  @Override
  public void delete(Object namespace, long time) {
    used = true;
    Timer timer = new Timer(requireKey(), namespace, time);
    removeLive(timer);
    TimerSection first = sections.peek();
    if (first != null && time >= first.headTime()) {
      tombstones.add(timer);
      if (tombstones.size() >= tombstoneSweepAt) {
        sweepTombstones();
      }
    }
  }

  /** Drops tombstones below every undecoded timer: nothing they could match is left. */
  private void sweepTombstones() {
    TimerSection first = sections.peek();
    long earliest = first == null ? Long.MAX_VALUE : first.headTime();
    tombstones.removeIf(t -> t.time() < earliest);
    tombstoneSweepAt = Math.max(1024, tombstones.size() * 2);
  }

  /** An equal namespace registered recently, or {@code namespace} (remembered). */
  private Object shared(Object namespace) {
    if (namespace == null) {
      return null;
    }
    for (int i = 1; i <= RECENT_NAMESPACES; i++) { // the last one remembered first: usually the one asked for
      Object recent = recentNamespaces[(nextRecent - i + RECENT_NAMESPACES) % RECENT_NAMESPACES];
      if (recent == namespace || namespace.equals(recent)) {
        return recent;
      }
    }
    recentNamespaces[nextRecent] = namespace;
    nextRecent = (nextRecent + 1) % RECENT_NAMESPACES;
    return namespace;
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  /**
   * Removes and returns the earliest timer due at {@code watermark} (time {@code <= watermark}),
   * with the backend's current key set to the timer's key; null when none is due. Moves
   * {@link #currentWatermark()} to {@code watermark}.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   * @throws java.io.UncheckedIOException when the bytes of a restored section with a due timer
   *     cannot be read
   */
  @Override
  public Timer pollDue(long watermark) {
    moveWatermark(watermark);
    if (sections.isEmpty()) {
      return pollDueFromQueue(watermark);
    }
    Timer head = queue.peek();
    TimerSection section = sectionHead();
    if (section != null && (head == null || section.headTime() <= head.time())) {
      if (section.headTime() > watermark) {
        return null; // decided by the time alone: an undue section is not read
      }
      Timer restoredTimer = section.head();
      take(section);
      removeLive(restoredTimer); // registered again since the restore: fires once
      backend.setCurrentKey(restoredTimer.key());
      return restoredTimer;
    }
    return pollQueueHead(watermark);
  }

  /** {@link #pollDue} when no restored timer is left undecoded: one map operation per timer fired. */
  private Timer pollDueFromQueue(long watermark) {
    if (!tombstones.isEmpty()) {
      tombstones.clear(); // nothing undecoded is left for them to match
    }
    return pollQueueHead(watermark);
  }

  /** Removes and returns the queue's earliest timer if it is due, with its key set current. */
  private Timer pollQueueHead(long watermark) {
    TimerHeap.Entry head = queue.peek();
    if (head == null || head.time() > watermark) {
      return null;
    }
    queue.poll();
    live.removeExact(head);
    backend.setCurrentKey(head.key());
    return head;
  }

  /**
   * Sets {@link #currentWatermark()}; called after the due timers fired.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   */
  @Override
  public void advanceWatermark(long watermark) {
    moveWatermark(watermark);
  }

  /**
   * Number of live timers. While restored timers are still undecoded, a timer registered or
   * deleted since the restore that is among them may be counted once too often.
   */
  @Override
  public int size() {
    return (int) Math.min(Integer.MAX_VALUE, live.size() + undecoded);
  }

  /**
   * Time of the earliest live timer, {@code Long.MAX_VALUE} when there is none. Reads no restored
   * section, unless tombstones may match its earliest timer.
   */
  @Override
  public long nextTimerTime() {
    Timer head = queue.peek();
    TimerSection section = sectionHead();
    long restoredTime = section == null ? Long.MAX_VALUE : section.headTime();
    return Math.min(head == null ? Long.MAX_VALUE : head.time(), restoredTime);
  }

  /** The section with the earliest undecoded timer that was not deleted; null when none is left. */
  private TimerSection sectionHead() {
    TimerSection first = sections.peek();
    while (first != null && !tombstones.isEmpty() && tombstones.remove(first.head())) {
      take(first);
      first = sections.peek();
    }
    if (first == null && !tombstones.isEmpty()) {
      tombstones.clear();
    }
    return first;
  }

  /** Drops the head of {@code section}, the first of {@link #sections}. */
  private void take(TimerSection section) {
    long time = section.headTime();
    section.advance();
    undecoded--;
    if (section.head() == null) {
      sections.poll();
    } else if (section.headTime() != time) {
      sections.poll();
      sections.add(section);
    }
  }

  private void moveWatermark(long wm) {
    used = true;
    if (wm < watermark) {
      throw new IllegalArgumentException(
          "watermark went back from " + watermark + " to " + wm);
    }
    watermark = wm;
  }

  private Key requireKey() {
    Key key = backend.currentKey();
    if (key == null) {
      throw new IllegalStateException("timers need a current key: set it on the state backend first");
    }
    return key;
  }

  /**
   * The live timers and the current watermark, serialized (on the calling thread: the service may
   * change as soon as this returns) in version 3 of {@link TimerSnapshotFormat}: sections per key
   * group (of the backend's {@code maxParallelism}), each in time order, with an index up front.
   *
   * @param namespaceCodec encodes the namespaces the operator registers timers with
   * @throws ClassCastException when a namespace is not of the codec's type
   * @throws java.io.UncheckedIOException when a restored section not read yet cannot be read
   */
  @Override
  public <N> byte[] snapshot(StateCodec<N> namespaceCodec) {
    return snapshotLater(namespaceCodec).get();
  }

  /**
   * The live timers and the current watermark as they are now, serialized later by the supplier
   * on any thread (as {@link #snapshot}): only the queue's array of timer references (one array
   * copy), the cursors of the undecoded restored timers and the tombstones are copied here,
   * reading no restored section, so
   * a checkpoint's synchronous part on the task thread stays short however many timers there are
   * (iterating a live set of millions took seconds).
   * The supplier reads the restored sections that were not read yet (see the class doc for why
   * they are still there), sharing them with the task thread. Timers are immutable; the codec must
   * be usable from another thread.
   */
  @Override
  public <N> Supplier<byte[]> snapshotLater(StateCodec<N> namespaceCodec) {
    Timer[] queued = queue.timers(); // an array copy: far cheaper than iterating the live set
    TimerSection[] cursors = new TimerSection[sections.size()];
    int i = 0;
    for (TimerSection s : sections) {
      cursors[i++] = s.copy();
    }
    Set<Timer> deleted = tombstones.isEmpty() ? Set.of() : new HashSet<>(tombstones);
    long wm = watermark;
    int maxParallelism = backend.maxParallelism();
    return () -> TimerSnapshotFormat.write(wm, maxParallelism, queued, cursors, deleted, namespaceCodec);
  }

  /**
   * Adds the timers of {@code data} (written by {@link #snapshot}, or an older version of the format)
   * whose key belongs to a key group of {@code range} among {@code maxParallelism}. When rescaling,
   * call it once per snapshot that may hold such timers; the watermark becomes the lowest among the
   * restored snapshots (timers above it have not fired in any of them). Of a version 2 or 3
   * snapshot only the index is read here: its sections are checked as they are decoded, so a
   * corrupt section or a wrong codec may surface later, from {@link #pollDue} or {@link
   * #nextTimerTime}.
   *
   * @throws IllegalStateException when the service was already used (timers registered, deleted
   *     or polled, or the watermark moved), or {@code data} is corrupt, or was written with another
   *     {@code maxParallelism}
   */
  @Override
  public <N> void restore(byte[] data, StateCodec<N> namespaceCodec, KeyGroupRange range, int maxParallelism) {
    restore("cannot restore timers: ", () -> TimerSnapshotFormat.read(data, namespaceCodec, range, maxParallelism));
  }

  /**
   * As {@link #restore(byte[], StateCodec, KeyGroupRange, int)}, reading the snapshot from {@code
   * source}: of a version 3 snapshot only its header and index now (two ranged reads), each owned
   * section when its timers are needed (see the class doc); older versions whole, now.
   *
   * @throws IllegalStateException as the other restore, and when the header or index cannot be read
   */
  @Override
  public <N> void restore(TimerSnapshotSource source, StateCodec<N> namespaceCodec, KeyGroupRange range,
      int maxParallelism) {
    restore("cannot restore timers " + source.name() + ": ",
        () -> TimerSnapshotFormat.read(source, namespaceCodec, range, maxParallelism));
  }

  /** Reads a snapshot's restored part. */
  private interface Reader {
    TimerSnapshotFormat.Restored read() throws IOException;
  }

  private void restore(String failure, Reader reader) {
    if (used) {
      throw new IllegalStateException("timers can only be restored into a fresh timer service");
    }
    TimerSnapshotFormat.Restored r;
    try {
      r = reader.read();
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(failure + e.getMessage(), e);
    }
    watermark = restored ? Math.min(watermark, r.watermark()) : r.watermark();
    restored = true;
    // in time order, each insertion into the heap is O(1)
    for (Timer timer : r.timers()) {
      addLive(new TimerHeap.Entry(timer.key(), timer.namespace(), timer.time()));
    }
    for (TimerSection s : r.sections()) {
      sections.add(s);
      undecoded += s.remaining();
    }
  }
}
