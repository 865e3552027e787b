package io.tributary.worker.task;

/** What feeds a task: source splits, or the channels of an input gate. Task thread only. */
interface TaskInput {
  /** Processed some input. */
  int MORE = 1;
  /** Nothing to process now; wait for a wake-up or {@link #maxWaitNanos()}. */
  int NOTHING = 0;
  /** All input has ended (the final watermark has been passed to the task already). */
  int END = -1;

  void open(StreamTask task);

  /** Processes a bounded amount of input; stops early when the task cannot take more now. */
  int step();

  /**
   * Handles what must not wait for the task's outputs to get credit (barriers that overtook the
   * buffered input); called before the task waits for credit.
   */
  default void pollPriority() {}

  /** The longest the task may wait before calling {@link #step()} again. */
  long maxWaitNanos();

  /**
   * The longest the task may wait for credit before calling {@link #pollPriority()} again (an
   * alignment that times out turns unaligned while the task is backpressured too).
   */
  default long maxCreditWaitNanos() {
    return Long.MAX_VALUE;
  }

  void close();
}
