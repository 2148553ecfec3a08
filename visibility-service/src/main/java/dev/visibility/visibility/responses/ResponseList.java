package dev.visibility.visibility.responses;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * {@code data} of the recent-responses listing: the project's executions, most recently completed
 * first, each with the execution id that E12 reads.
 */
public record ResponseList(List<Item> items, Pagination pagination) {

    // one name per schema in the OpenAPI document (another record of this service is also called Item)
    @Schema(name = "ResponseListItem")
    public record Item(UUID executionId, UUID runId, UUID promptId, String platform, Instant completedAt, boolean retained,
            boolean adCaptureMeasured, int adCount) {
    }

    /** @param nextCursor pass it unchanged as {@code cursor} for the next page; null on the last page */
    // one name per schema in the OpenAPI document (another record of this service is also called Pagination)
    @Schema(name = "ResponseListPagination")
    public record Pagination(boolean hasMore, @Nullable String nextCursor, int limit) {
    }
}
