package dev.visibility.visibility.responses;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code data} of the recent-responses listing: the project's executions, most recently completed
 * first, each with the execution id that E12 reads.
 */
public record ResponseList(List<Item> items, Pagination pagination) {

    public record Item(UUID executionId, UUID runId, UUID promptId, String platform, Instant completedAt, boolean retained,
            boolean adCaptureMeasured, int adCount) {
    }

    /** @param nextCursor pass it unchanged as {@code cursor} for the next page; null on the last page */
    public record Pagination(boolean hasMore, String nextCursor, int limit) {
    }
}
