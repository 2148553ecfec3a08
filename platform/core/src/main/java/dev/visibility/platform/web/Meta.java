package dev.visibility.platform.web;

import java.time.Instant;

/** The {@code meta} member of every {@code {data, meta}} answer (spec 2.1). */
public record Meta(Instant timestamp, String projectId) {

    public static Meta now(String projectId) {
        return new Meta(Instant.now(), projectId);
    }
}
