package dev.visibility.actions.action;

import java.time.Instant;
import java.util.List;

/** The implementation brief of an action, as the recommendation jobs wrote it. */
public record Brief(String summary, List<Step> steps, Instant generatedAt, Instant updatedAt) {

    public record Step(String heading, String body) {
    }
}
