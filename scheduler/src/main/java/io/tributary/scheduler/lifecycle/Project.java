package io.tributary.scheduler.lifecycle;

import java.time.Instant;

/** A project: the tenancy unit that jobs belong to. */
public record Project(String name, Instant createdAt) {}
