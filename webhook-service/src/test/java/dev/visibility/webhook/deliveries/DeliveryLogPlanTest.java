package dev.visibility.webhook.deliveries;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.webhook.delivery.DeliveryState;
import dev.visibility.webhook.support.SyntheticDeliveries;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * A page of the delivery log reads at most a page of each state from {@code deliveries_log_by_state}
 * (migration V6 dropped the index of the whole log by time), never the webhook's whole log: with
 * 30,000 deliveries over 10 webhooks, the first page and a later one, of every state and of one.
 */
class DeliveryLogPlanTest extends WebhookApiTest {

    @Autowired
    DatabaseClient db;

    @Test
    void aPageOfTheLogIsReadFromTheStatesIndexForEveryFilter() {
        try (SyntheticDeliveries log = SyntheticDeliveries.create(db, 10, 30_000)) {
            UUID webhook = log.subscriptions().get(3);
            List<String[]> filters = List.of(DeliveryState.wireNames().toArray(String[]::new), new String[] {"failed"});
            for (String[] states : filters) {
                for (boolean after : List.of(false, true)) {
                    DatabaseClient.GenericExecuteSpec explain = db.sql("EXPLAIN " + DeliveryLog.pageSql(after))
                            .bind("webhookId", webhook)
                            .bind("states", ArrayLiterals.texts(states))
                            .bind("limit", 26);
                    if (after) {
                        explain = explain.bind("afterCreatedAt", Instant.now().minusSeconds(86_400 * 7))
                                .bind("afterId", UUID.randomUUID());
                    }
                    String plan = SyntheticDeliveries.plan(explain);
                    assertThat(plan).as("%s after=%s", String.join(",", states), after)
                            .contains("deliveries_log_by_state").doesNotContain("Seq Scan on deliveries")
                            .doesNotContain("Bitmap Heap Scan on deliveries");
                }
            }
        }
    }
}
