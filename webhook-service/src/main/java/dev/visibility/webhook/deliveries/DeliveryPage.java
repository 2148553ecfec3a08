package dev.visibility.webhook.deliveries;

import java.util.List;

/** {@code data} of the delivery log: newest first, keyset-paged. */
public record DeliveryPage(List<DeliveryItem> deliveries, Pagination pagination) {

    /** {@code nextCursor} is null on the last page. */
    public record Pagination(boolean hasMore, String nextCursor, int pageSize) {
    }
}
