package dev.visibility.actions.action;

import java.time.Instant;
import java.util.UUID;

/** The shipped action this one follows up (spec 2.4 {@code followUpOf}). */
public record FollowUpOf(UUID actionId, String title, Instant shippedAt) {
}
