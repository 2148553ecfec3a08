package dev.visibility.visibility.responses;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code data} of E12 (spec 2.12): one execution as evidence, with its captured sponsored ads.
 * After the retention has expired {@code retained} is false and {@code answerText} is the empty
 * string (the field stays a string, as 2.12 types it); the ads stay.
 */
public record RetainedResponse(UUID executionId, UUID promptId, String platform, String answerText, Instant completedAt,
        boolean retained, boolean adCaptureMeasured, List<Ad> ads) {

    public record Ad(String title, String description, String domain, String name, String body, String url) {
    }
}
