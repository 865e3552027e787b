package io.tributary.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The most heap this JVM held right after a garbage collection while the watch was open: the live
 * heap (plus what the collection left), not the garbage in between, so it says how much heap a run
 * needs. 0 when no collection ran meanwhile.
 */
final class HeapWatch implements AutoCloseable {
  private final Set<String> heapPools = new HashSet<>();
  private final AtomicLong max = new AtomicLong();
  private final NotificationListener listener = this::collected;

  HeapWatch() {
    ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
        .forEach(p -> heapPools.add(p.getName()));
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(listener, null, null);
      }
    }
  }

  private void collected(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    max.accumulateAndGet(used, Math::max);
  }

  /** The most heap used after a collection so far, in bytes. */
  long maxAfterGc() {
    return max.get();
  }

  @Override
  public void close() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        try {
          e.removeNotificationListener(listener);
        } catch (javax.management.ListenerNotFoundException ignored) {
          // never added
        }
      }
    }
  }
}
