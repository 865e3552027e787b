package io.tributary.worker.operator;

import io.tributary.state.Key;

/** An event-time timer: due when the watermark reaches {@code time}. Unique per (key, namespace, time). */
public record Timer(Key key, Object namespace, long time) {}
