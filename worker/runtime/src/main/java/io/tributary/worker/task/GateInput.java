package io.tributary.worker.task;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import io.tributary.worker.exchange.ElementReader;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;

/**
 * Input from upstream tasks (contract C3): the task's watermark is the minimum over channels that
 * are neither idle nor ended; when every open channel is idle, the task is idle; when every channel
 * has ended, the watermark goes to the end of time and the input ends.
 *
 * <p>Checkpoint barriers are aligned (see {@link #onBarrier}): input that follows barrier n on a
 * channel is held until barrier n arrived on every channel, so the snapshot covers exactly the
 * input before the barrier. Held buffers keep their credit, which backpressures that sender.
 *
 * <p>Unaligned checkpoints (see {@link Unaligned}) hold nothing back: the first barrier of
 * checkpoint n, which overtook the buffered records with priority, makes the task snapshot at once.
 * From then on the records before barrier n on each channel that the snapshot missed are logged
 * into the checkpoint ({@link InFlightLog}) as their buffers arrive, ahead of processing: the
 * buffers the task had taken and not read yet at once, later ones when they are taken from the
 * gate, which every arrival is while a checkpoint logs. A logged buffer is copied and its credit
 * returned at once, so the sender's buffers before the barrier follow quickly; the copies are
 * processed in turn. The log is complete, and the checkpoint's part of the task acknowledged, when
 * every channel's buffers before its barrier arrived, however long processing them takes. With an
 * alignment timeout a checkpoint first aligns, and turns unaligned when it waited longer.
 *
 * <p>Watermark alignment (with a {@code maxDrift}, for tasks with event-time state): a channel whose
 * watermark runs more than {@code maxDrift} ahead of the task's watermark is held the same way
 * until the slowest channel catches up. Without it, a source subtask that runs ahead of another (a
 * thread that got more CPU) fills the task's state with windows that cannot fire before the
 * slowest channel's watermark passes them; with it, the fast sender waits for credit instead. The
 * slowest channel is never held, idle and ended channels do not count, and no channel is held
 * while a checkpoint aligns (a held channel's barrier would never come). A task that has nothing
 * else to read for {@link #STARVED_GRACE_NANOS} reads its held channels all the same: the slowest
 * channel's sender may itself wait for the held one (both fed by one upstream task, which waits for
 * credit from the held sender), and holding on would stall the job for good.
 */
final class GateInput implements TaskInput {
  private static final int MAX_ELEMENTS_PER_STEP = 4096;
  /** How long a task with only held-ahead input waits for its slower channels before it reads the held ones. */
  static final long STARVED_GRACE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5);

  private final InputGate gate;
  private final InboundChannel[] channels;
  private final ChainNode[] heads;
  /** Per channel: which input of its head it feeds (a join's left or right, a union's n-th). */
  private final int[] inputs;
  private final ElementReader[] readers;
  private final long[] watermarks;
  private final boolean[] idle;
  private final boolean[] ended;
  private int endedCount;
  private long combined = Watermark.NONE;
  private long lastBarrier = Long.MIN_VALUE;
  private InputGate.Arrival current;
  private StreamTask task;
  // ---- barrier alignment ----
  /** Per channel: arrivals held back (the channel delivered the barrier being aligned, or has older held arrivals). */
  private final java.util.ArrayDeque<InputGate.Arrival>[] held;
  /** Per channel: a partly read arrival whose reader position must be kept. */
  private final InputGate.Arrival[] partlyRead;
  /** Per channel: it delivered the barrier being aligned (its input is held when {@link #aligned}). */
  private final boolean[] blocked;
  private final boolean aligned;
  /** Watermark alignment: how far a channel's watermark may run ahead of the task's; 0 for off. */
  private final long maxDrift;
  /** Per channel: its watermark ran more than {@link #maxDrift} ahead; its input is held. */
  private final boolean[] ahead;
  private int channelsWithBacklog;
  private long aligning = -1;
  private long alignmentStartNanos;
  // ---- unaligned checkpoints ----
  private final Unaligned unaligned;
  /** Per channel: data buffers taken from the gate so far (numbered 1, 2, ... in the channel's order). */
  private final long[] arrived;
  /** Per channel, while it is logged: decodes its buffers as they arrive, ahead of processing. */
  private final ElementReader[] logReaders;
  /** Copies of logged buffers, whose originals went back to their senders already. */
  private final java.util.Set<io.tributary.worker.exchange.Buffer> copies =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private boolean capturing;
  /** The unaligned checkpoint whose in-flight records are being logged, or -1. */
  private long logging = -1;
  private InFlightLog log;
  private java.util.concurrent.CompletableFuture<InFlightLog.Sealed> logged;
  /** Per channel: the last data buffer before its barrier ({@link Long#MAX_VALUE} until the barrier came). */
  private final long[] logUpTo;
  /** Per channel: every buffer it had before the barrier being logged arrived and was logged. */
  private final boolean[] logDone;
  /** Records logged by an earlier attempt, fed to the chain heads before the gate is read. */
  private final java.util.ArrayDeque<Replay> replay = new java.util.ArrayDeque<>();
  private java.util.function.LongSupplier clock = System::nanoTime;
  /** Whether the task found nothing to read but channels held ahead, since {@link #starvedSince}. */
  private boolean starved;
  private long starvedSince;

  /**
   * How a task takes part in unaligned checkpoints.
   *
   * @param timeoutNanos how long a checkpoint aligns before it turns unaligned here;
   *     {@link Checkpointing#NO_TIMEOUT} for unaligned from the start
   * @param keys per channel, the key of its hash exchange (the key group goes with each logged
   *     record), or null
   * @param maxParallelism the job's number of key groups
   */
  record Unaligned(long timeoutNanos, io.tributary.stream.KeySelector[] keys, int maxParallelism) {}

  /** A record logged at an unaligned checkpoint, to feed into input {@code input} of {@code head}. */
  record Replay(ChainNode head, int input, Record record) {}

  /**
   * @param channels the inbound channels by gate channel index
   * @param heads the chain head each channel feeds, by gate channel index
   * @param endedFromStart channels known to carry nothing (a source subtask without splits): they
   *     never hold back the watermark
   */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, boolean[] endedFromStart) {
    this(gate, channels, heads, new int[channels.length], endedFromStart, true);
  }

  /**
   * @param inputs per channel, the input of its head it feeds (0 unless the head has several)
   * @param aligned whether to hold a channel's input after its barrier until the barrier came on every channel
   * @param maxDrift how far (event time, ms) a channel's watermark may run ahead of the task's
   *     before its input is held until the others catch up; 0 for no watermark alignment
   */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, int[] inputs, boolean[] endedFromStart,
      boolean aligned) {
    this(gate, channels, heads, inputs, endedFromStart, aligned, null, 0);
  }

  /** @param unaligned how the task takes part in unaligned checkpoints, or null if they are not */
  GateInput(InputGate gate, InboundChannel[] channels, ChainNode[] heads, int[] inputs, boolean[] endedFromStart,
      boolean aligned, Unaligned unaligned, long maxDrift) {
    this.aligned = aligned;
    this.maxDrift = maxDrift;
    this.unaligned = unaligned;
    this.arrived = new long[channels.length];
    this.logReaders = new ElementReader[channels.length];
    this.logUpTo = new long[channels.length];
    this.logDone = new boolean[channels.length];
    this.gate = gate;
    this.channels = channels;
    this.heads = heads;
    this.inputs = inputs.clone();
    int n = channels.length;
    this.readers = new ElementReader[n];
    for (int i = 0; i < n; i++) {
      readers[i] = new ElementReader();
    }
    this.watermarks = new long[n];
    java.util.Arrays.fill(watermarks, Watermark.NONE);
    this.idle = new boolean[n];
    this.ended = endedFromStart.clone();
    for (boolean e : ended) {
      endedCount += e ? 1 : 0;
    }
    @SuppressWarnings("unchecked")
    java.util.ArrayDeque<InputGate.Arrival>[] queues = new java.util.ArrayDeque[n];
    for (int i = 0; i < n; i++) {
      queues[i] = new java.util.ArrayDeque<>();
    }
    this.held = queues;
    this.partlyRead = new InputGate.Arrival[n];
    this.blocked = new boolean[n];
    this.ahead = new boolean[n];
  }

  @Override
  public void open(StreamTask task) {
    this.task = task;
    gate.onArrival(task.mailbox()::wakeup);
    if (endedCount == channels.length) {
      recompute(); // nothing will ever come: the watermark goes to the end of time
    }
  }

  /** Records to feed before the gate is read (a restore from an unaligned checkpoint). */
  void replay(java.util.List<Replay> records) {
    replay.addAll(records);
  }

  /** The clock alignment timeouts are measured with (tests). */
  void clock(java.util.function.LongSupplier nanoTime) {
    this.clock = nanoTime;
  }

  @Override
  public int step() {
    if (!replay.isEmpty()) {
      // nothing is read from the gate before the replay is over: a barrier then finds no replayed
      // record still waiting, which the checkpoint would have to log
      int n = 0;
      while (!replay.isEmpty() && n < MAX_ELEMENTS_PER_STEP && task.canTakeInput()) {
        Replay r = replay.poll();
        task.processRecord(r.head(), r.input(), r.record());
        n++;
      }
      return MORE;
    }
    int processed = 0;
    while (processed < MAX_ELEMENTS_PER_STEP) {
      if (current == null) {
        current = nextArrival();
        if (current == null && processed == 0 && releaseHeldWhenStarved()) {
          current = nextArrival();
        }
        if (current == null) {
          if (processed > 0) {
            return MORE;
          }
          return endedCount == channels.length ? END : NOTHING;
        }
        starved = false;
      }
      int c = current.channel();
      ElementReader reader = readers[c];
      while (reader.hasNext()) {
        if (!task.canTakeInput()) {
          return MORE;
        }
        pollPriority();
        handle(c, reader.next());
        processed++;
        if ((aligned && blocked[c]) || ahead[c]) {
          // the channel delivered the barrier being aligned, or ran ahead: keep the rest of this buffer for later
          if (reader.hasNext()) {
            partlyRead[c] = current;
            backlogAdded(c);
          } else {
            finished(current);
          }
          current = null;
          break;
        }
      }
      if (current != null) {
        InputGate.Arrival done = current;
        current = null;
        finished(done);
      }
    }
    return MORE;
  }

  /** Channel {@code a.channel()}'s buffer was read to its end: back to the sender (a copy: already). */
  private void finished(InputGate.Arrival a) {
    if (!copies.remove(a.buffer())) {
      channels[a.channel()].recycle(a.buffer());
    }
  }

  /**
   * Handles the barriers that overtook buffers; see {@link InputGate#pollPriority()} for the order.
   * Every buffer taken from the gate so far is then before or at the barrier's last buffer on its
   * channel, so the one being read may be followed by a barrier in the middle.
   */
  @Override
  public void pollPriority() {
    if (unaligned == null || !replay.isEmpty()) {
      return;
    }
    InputGate.PriorityBarrier p;
    while ((p = gate.pollPriority()) != null) {
      onPriorityBarrier(p.channel(), p.checkpointId(), p.buffers());
    }
    checkAlignmentTimeout();
    capture();
  }

  /**
   * Turns the checkpoint being aligned unaligned once its alignment waited longer than the timeout.
   * Checked between any two elements (this is called before each one is handled) and while the task
   * waits for credit, not only when a step starts: a step may take long (a slow operator, up to
   * {@link #MAX_ELEMENTS_PER_STEP} elements) and a backpressured task takes none, and an alignment
   * checked that late overran its timeout many times over and mostly completed aligned.
   */
  private void checkAlignmentTimeout() {
    if (aligning >= 0 && unaligned.timeoutNanos() != Checkpointing.NO_TIMEOUT
        && clock.getAsLong() - alignmentStartNanos > unaligned.timeoutNanos()) {
      startUnaligned(aligning);
    }
  }

  /**
   * While a checkpoint logs: takes every arrival from the gate now, logging the buffers before the
   * barrier of their channel, and holds them for processing in their channel's order.
   */
  private void capture() {
    if (logging < 0 || capturing) {
      return;
    }
    capturing = true;
    try {
      InputGate.Arrival a;
      while (logging >= 0 && (a = gate.poll()) != null) {
        pollPriority(); // see nextArrival
        a = arrivedFromGate(a);
        hold(a.channel(), a);
      }
    } finally {
      capturing = false;
    }
  }

  /** Numbers a data buffer taken from the gate and logs it if it is before its channel's barrier. */
  private InputGate.Arrival arrivedFromGate(InputGate.Arrival a) {
    int c = a.channel();
    if (a.buffer() == null) {
      return a;
    }
    arrived[c]++;
    if (logging < 0 || logDone[c] || arrived[c] > logUpTo[c]) {
      return a;
    }
    logReaders[c].reset(a.buffer());
    logBuffer(c);
    if (arrived[c] == logUpTo[c]) {
      logDone[c] = true;
    }
    InputGate.Arrival copy = copyOf(a);
    checkLogged();
    return copy;
  }

  /** Logs the records of channel {@code c}'s log reader up to the end of its buffer or the barrier. */
  private void logBuffer(int c) {
    ElementReader r = logReaders[c];
    while (!logDone[c] && r.hasNext()) {
      StreamElement e = r.next();
      if (e instanceof Record rec) {
        log.add(heads[c].plan.id(), inputs[c], keyGroup(c, rec), rec);
      } else if ((e instanceof Barrier b && b.checkpointId() == logging) || e instanceof EndOfInput) {
        logDone[c] = true; // an in-band barrier, or the end: nothing after it is in flight before it
      }
      // watermarks and idleness are not logged: see startUnaligned
    }
  }

  /** A copy of a logged arrival; the original goes back to its sender with its credit now. */
  private InputGate.Arrival copyOf(InputGate.Arrival a) {
    io.tributary.worker.exchange.Buffer b = a.buffer();
    io.tributary.worker.exchange.Buffer copy = new io.tributary.worker.exchange.Buffer(b.length());
    System.arraycopy(b.data(), 0, copy.data(), 0, b.length());
    copy.setLength(b.length());
    copies.add(copy);
    channels[a.channel()].recycle(b);
    return new InputGate.Arrival(a.channel(), copy);
  }

  private void hold(int c, InputGate.Arrival a) {
    boolean had = hasBacklog(c);
    held[c].add(a);
    if (!had) {
      channelsWithBacklog++;
    }
  }

  /**
   * The next arrival to read: held arrivals of channels no longer blocked first (in channel order),
   * then new arrivals; new arrivals of a blocked channel, or of one with older held arrivals, are
   * held so each channel's order is kept.
   */
  private InputGate.Arrival nextArrival() {
    pollPriority(); // and, while a checkpoint logs, takes every arrival into the held ones
    if (channelsWithBacklog > 0) {
      for (int c = 0; c < channels.length; c++) {
        if (blocked[c] || ahead[c]) {
          continue;
        }
        if (partlyRead[c] != null) {
          InputGate.Arrival a = partlyRead[c];
          partlyRead[c] = null;
          backlogRemoved(c);
          return a; // the reader still points into it
        }
        InputGate.Arrival a = held[c].poll();
        if (a != null) {
          backlogRemoved(c);
          if (a.buffer() == null) {
            brokenChannel(a);
            continue;
          }
          readers[c].reset(a.buffer());
          return a;
        }
      }
    }
    InputGate.Arrival a;
    while ((a = gate.poll()) != null) {
      // a priority barrier sent before this buffer is visible now: it must be handled before the
      // buffer is read, which it may say is after the barrier
      pollPriority();
      a = arrivedFromGate(a);
      int c = a.channel();
      if ((aligned && blocked[c]) || ahead[c] || hasBacklog(c)) {
        hold(c, a);
        continue;
      }
      if (a.buffer() == null) {
        brokenChannel(a);
        continue;
      }
      readers[c].reset(a.buffer());
      return a;
    }
    return null;
  }

  /** A channel broke: the task fails, unless the channel had delivered its end of input. */
  private void brokenChannel(InputGate.Arrival a) {
    if (!ended[a.channel()]) {
      throw a.failure();
    }
  }

  private boolean hasBacklog(int c) {
    return partlyRead[c] != null || !held[c].isEmpty();
  }

  /** Call after adding to channel {@code c}'s backlog. */
  private void backlogAdded(int c) {
    int size = held[c].size() + (partlyRead[c] != null ? 1 : 0);
    if (size == 1) {
      channelsWithBacklog++;
    }
  }

  /** Call after taking from channel {@code c}'s backlog. */
  private void backlogRemoved(int c) {
    if (!hasBacklog(c)) {
      channelsWithBacklog--;
    }
  }

  private void handle(int c, StreamElement e) {
    if (e instanceof Record r) {
      task.processRecord(heads[c], inputs[c], r);
    } else if (e instanceof Watermark w) {
      if (w.timestamp() > watermarks[c]) {
        watermarks[c] = w.timestamp();
        recompute();
        if (runsAhead(w.timestamp())) {
          ahead[c] = true;
        }
      }
    } else if (e instanceof IdleStatus s) {
      idle[c] = s.idle();
      recompute();
    } else if (e instanceof Barrier b) {
      onBarrier(c, b.checkpointId());
    } else if (e instanceof EndOfInput) {
      if (!ended[c]) {
        ended[c] = true;
        endedCount++;
        recompute();
        if (aligning >= 0) {
          checkAligned(); // an ended channel has sent everything the checkpoint covers
        }
        if (logging >= 0) {
          checkLogged(); // its log reader saw the end already
        }
      }
    }
  }

  /**
   * Aligned checkpoints: the first barrier of checkpoint n blocks its channel; each channel that
   * delivers barrier n is blocked in turn; when every channel that has not ended is blocked, the
   * task takes its snapshot, forwards the barrier, and reads the held input.
   */
  private void onBarrier(int c, long checkpointId) {
    if (checkpointId == logging) {
      return; // an in-band barrier of a checkpoint that turned unaligned here: its log reader saw it
    }
    if (checkpointId <= lastBarrier) {
      return; // an older checkpoint, given up
    }
    if (unaligned != null && unaligned.timeoutNanos() == Checkpointing.NO_TIMEOUT) {
      // an in-band barrier although checkpoints are unaligned from the start (a sender that aligned it)
      startUnaligned(checkpointId);
      logDone[c] = true;
      checkLogged();
      return;
    }
    if (checkpointId > aligning) {
      if (aligning >= 0) {
        unblockAll(); // a newer checkpoint started: the one being aligned cannot complete here
      }
      aligning = checkpointId;
      alignmentStartNanos = clock.getAsLong();
      java.util.Arrays.fill(ahead, false); // every channel must deliver the barrier
    } else if (checkpointId < aligning) {
      return;
    }
    blocked[c] = true;
    checkAligned();
  }

  private void checkAligned() {
    for (int i = 0; i < channels.length; i++) {
      if (!blocked[i] && !ended[i]) {
        return;
      }
    }
    long id = aligning;
    lastBarrier = id;
    aligning = -1;
    task.alignmentNanos(clock.getAsLong() - alignmentStartNanos);
    unblockAll();
    task.processBarrier(id);
  }

  /**
   * Barrier {@code checkpointId} overtook the buffers of channel {@code c}: the first {@code buffers}
   * data buffers of the channel are before it.
   */
  private void onPriorityBarrier(int c, long checkpointId, long buffers) {
    if (checkpointId != logging) {
      if (checkpointId <= lastBarrier || checkpointId < aligning || ended[c]) {
        return; // an older checkpoint, given up
      }
      startUnaligned(checkpointId); // also when it was aligning here: it turns unaligned
    }
    logUpTo[c] = buffers;
    if (!logDone[c] && arrived[c] >= buffers) {
      logDone[c] = true; // every buffer before the barrier arrived, and was logged
      checkLogged();
    }
  }

  /**
   * Checkpoint {@code checkpointId} turns unaligned here (its first barrier came with priority, or
   * its alignment timed out): the task snapshots now and forwards the barrier with priority. Each
   * channel's records before its barrier are logged from now on, except on channels that delivered
   * the barrier in-band already (blocked: what they hold is after it) or ended. A checkpoint still
   * logging is given up: the newer one covers its records.
   *
   * <p>Watermarks in flight are not logged. A restored task starts each channel's watermark from
   * nothing and its operators from the watermark they snapshotted, which is at most that of every
   * channel before the logged records; upstream tasks regenerate their watermarks after the replay.
   * So no replayed record is late where it was not, and the watermark never goes back.
   */
  private void startUnaligned(long checkpointId) {
    if (logging >= 0) {
      logged.completeExceptionally(new java.util.concurrent.CancellationException(
          "checkpoint " + logging + " was overtaken by checkpoint " + checkpointId + " at its in-flight records"));
      logging = -1;
    }
    boolean wasAligning = aligning == checkpointId;
    for (int i = 0; i < channels.length; i++) {
      logDone[i] = ended[i] || (wasAligning && blocked[i]);
      logUpTo[i] = Long.MAX_VALUE;
    }
    if (aligning >= 0) {
      task.alignmentNanos(clock.getAsLong() - alignmentStartNanos);
    }
    aligning = -1;
    unblockAll();
    lastBarrier = checkpointId;
    logging = checkpointId;
    log = new InFlightLog();
    logged = new java.util.concurrent.CompletableFuture<>();
    task.processBarrier(checkpointId, logged);
    for (int c = 0; c < channels.length; c++) {
      if (!logDone[c]) {
        logTaken(c);
      }
    }
    checkLogged();
  }

  /**
   * Logs what channel {@code c} delivered before the snapshot and the task did not read: the rest
   * of the buffer being read, then the buffers held for later, which are replaced by copies.
   */
  private void logTaken(int c) {
    logReaders[c] = readers[c].fork();
    logBuffer(c);
    java.util.ArrayDeque<InputGate.Arrival> copied = new java.util.ArrayDeque<>();
    for (InputGate.Arrival a : held[c]) {
      if (!logDone[c] && a.buffer() != null) {
        logReaders[c].reset(a.buffer());
        logBuffer(c);
        a = copies.contains(a.buffer()) ? a : copyOf(a);
      }
      copied.add(a);
    }
    held[c].clear();
    held[c].addAll(copied);
  }

  /** Completes the in-flight records of the unaligned checkpoint once every channel delivered its barrier. */
  private void checkLogged() {
    if (logging < 0) {
      return;
    }
    for (int i = 0; i < channels.length; i++) {
      if (!logDone[i] && !ended[i]) {
        return;
      }
    }
    java.util.concurrent.CompletableFuture<InFlightLog.Sealed> done = logged;
    InFlightLog full = log;
    logging = -1;
    log = null;
    logged = null;
    done.complete(full.seal());
  }

  private int keyGroup(int c, Record r) {
    io.tributary.stream.KeySelector key = unaligned == null ? null : unaligned.keys()[c];
    return key == null ? -1 : key.keyOf(r).keyGroup(unaligned.maxParallelism());
  }

  private void unblockAll() {
    java.util.Arrays.fill(blocked, false);
  }

  private void recompute() {
    long min = Long.MAX_VALUE;
    boolean anyActive = false;
    for (int i = 0; i < channels.length; i++) {
      if (!ended[i] && !idle[i]) {
        anyActive = true;
        min = Math.min(min, watermarks[i]);
      }
    }
    if (!anyActive && endedCount < channels.length) {
      task.setIdle(true);
      return;
    }
    if (min > combined) {
      combined = min;
      for (int i = 0; i < ahead.length; i++) {
        if (ahead[i] && !runsAhead(watermarks[i])) {
          ahead[i] = false;
        }
      }
      task.advanceWatermark(min);
    } else if (anyActive) {
      task.setIdle(false);
    }
  }

  /**
   * The task has nothing to read but what channels ahead hold: once that has lasted
   * {@link #STARVED_GRACE_NANOS}, those channels are read again (until their next watermark runs
   * ahead). True if any was released.
   */
  private boolean releaseHeldWhenStarved() {
    boolean holding = false;
    for (int c = 0; c < channels.length && !holding; c++) {
      holding = ahead[c] && hasBacklog(c);
    }
    if (!holding) {
      starved = false;
      return false;
    }
    long now = clock.getAsLong();
    if (!starved) {
      starved = true;
      starvedSince = now;
    }
    if (now - starvedSince < STARVED_GRACE_NANOS) {
      return false;
    }
    starved = false;
    for (int c = 0; c < channels.length; c++) {
      if (ahead[c] && hasBacklog(c)) {
        ahead[c] = false;
      }
    }
    return true;
  }

  /**
   * Whether a channel at {@code watermark} runs too far ahead of the task's (a difference that
   * overflows is far ahead). Never while a checkpoint aligns, nor before the task has a watermark.
   */
  private boolean runsAhead(long watermark) {
    if (maxDrift <= 0 || aligning >= 0 || combined == Watermark.NONE || watermark <= combined) {
      return false;
    }
    long drift = watermark - combined;
    return drift > maxDrift || drift < 0;
  }

  @Override
  public long maxWaitNanos() {
    long wait = maxCreditWaitNanos();
    if (starved) { // wake up to read the held channels when the grace period ends
      wait = Math.min(wait, Math.max(1, starvedSince + STARVED_GRACE_NANOS - clock.getAsLong()));
    }
    return wait;
  }

  /** Waiting for credit, the task wakes up too when the alignment times out (see {@link #pollPriority()}). */
  @Override
  public long maxCreditWaitNanos() {
    if (aligning >= 0 && unaligned != null && unaligned.timeoutNanos() != Checkpointing.NO_TIMEOUT) {
      // wake up to turn the checkpoint unaligned when its alignment times out
      return Math.max(1, alignmentStartNanos + unaligned.timeoutNanos() + 1 - clock.getAsLong());
    }
    return Long.MAX_VALUE;
  }

  @Override
  public void close() {
    if (current != null) {
      finished(current);
      current = null;
    }
    for (int c = 0; c < channels.length; c++) {
      if (partlyRead[c] != null) {
        finished(partlyRead[c]);
        partlyRead[c] = null;
      }
      InputGate.Arrival a;
      while ((a = held[c].poll()) != null) {
        if (a.buffer() != null) {
          finished(a);
        }
      }
    }
  }
}
