package dev.visibility.webhook.deliveries;

import static dev.visibility.platform.testing.Http.data;
import static dev.visibility.platform.testing.Http.error;
import static dev.visibility.platform.testing.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.webhook.support.Events;
import dev.visibility.webhook.support.Kafka;
import dev.visibility.webhook.support.Receiver;
import dev.visibility.webhook.support.WebhookApiTest;
import org.junit.jupiter.api.Test;

/** The delivery log (spec 6.4.3): newest first, cursor paging, the state filter, and its 400s and 404s. */
class DeliveryLogApiTest extends WebhookApiTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Test
    @SuppressWarnings("unchecked")
    void pagesAreNewestFirstAndTheCursorWalksThemAll() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/paged"), "search-tracking.completed");
            for (int i = 0; i < 5; i++) {
                Kafka.publish(Kafka.event("search-tracking.completed", project, Map.of("runId", "r" + i, "finalStatus", "completed")));
            }
            awaitDeliveries(project, webhook.get("id"),
                    items -> items.size() == 5 && items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);

            List<Map<String, Object>> walked = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                Map<String, Object> envelope = json(get(project, "/webhooks/" + webhook.get("id") + "/deliveries?pageSize=2"
                        + (cursor == null ? "" : "&cursor=" + cursor)), 200);
                Map<String, Object> data = data(envelope);
                Map<String, Object> pagination = (Map<String, Object>) data.get("pagination");
                assertThat(pagination.keySet()).containsExactlyInAnyOrder("hasMore", "nextCursor", "pageSize");
                assertThat(pagination.get("pageSize")).isEqualTo(2);
                walked.addAll((List<Map<String, Object>>) data.get("deliveries"));
                cursor = (String) pagination.get("nextCursor");
                assertThat(pagination.get("hasMore")).isEqualTo(cursor != null);
                pages++;
            } while (cursor != null);

            assertThat(pages).isEqualTo(3);
            // a cursor holds only with the webhook, filter and page size it was issued for (DESIGN.md, Cursors)
            String first = (String) ((Map<String, Object>) data(json(get(project, "/webhooks/" + webhook.get("id")
                    + "/deliveries?pageSize=2"), 200)).get("pagination")).get("nextCursor");
            Object other = createWebhook(project, receiver.url("/other"), "action.created").get("id");
            for (String path : List.of("/webhooks/" + webhook.get("id") + "/deliveries?pageSize=3&cursor=" + first,
                    "/webhooks/" + webhook.get("id") + "/deliveries?pageSize=2&state=succeeded&cursor=" + first,
                    "/webhooks/" + other + "/deliveries?pageSize=2&cursor=" + first)) {
                assertThat((String) error(get(project, path), 400).get("message")).contains("'cursor'");
            }
            assertThat(walked).hasSize(5).extracting(d -> d.get("id")).doesNotHaveDuplicates();
            List<Instant> created = walked.stream().map(d -> Instant.parse((String) d.get("createdAt"))).toList();
            for (int i = 1; i < created.size(); i++) {
                assertThat(created.get(i)).isBeforeOrEqualTo(created.get(i - 1));
            }
        }
    }

    /**
     * The whole log is one order over every state (spec 6.4.3: newest first), although it is read as
     * the newest of each state's deliveries (migration V6): originals that succeeded and, newer, two
     * redeliveries of one of them that failed, walked two at a time.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theWholeLogIsNewestFirstAcrossStatesAndOneDeliveryCanBeRedeliveredTwice() {
        try (Receiver receiver = Receiver.https().answering(n -> Receiver.Answer.of(n <= 3 ? 200 : 500))) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, receiver.url("/mixed"), "search-tracking.completed");
            Object id = webhook.get("id");
            for (int i = 0; i < 3; i++) {
                Kafka.publish(Kafka.event("search-tracking.completed", project, Map.of("runId", "m" + i, "finalStatus", "completed")));
            }
            List<Map<String, Object>> originals = awaitDeliveries(project, id,
                    items -> items.size() == 3 && items.stream().allMatch(d -> "succeeded".equals(d.get("state"))), WITHIN);
            Object redelivered = originals.get(1).get("id");
            List<Object> redeliveries = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Map<String, Object> redelivery = data(json(post(project, "/webhooks/" + id + "/deliveries/" + redelivered
                        + "/redeliver", (String) null), 202));
                assertThat(redelivery).containsEntry("redeliveryOf", redelivered).containsEntry("state", "pending");
                redeliveries.add(0, redelivery.get("id"));
            }
            List<Map<String, Object>> all = awaitDeliveries(project, id, items -> items.size() == 5
                    && items.stream().filter(d -> "failed".equals(d.get("state"))).count() == 2, Duration.ofSeconds(60));

            List<Object> expected = new ArrayList<>(redeliveries);
            originals.forEach(d -> expected.add(d.get("id")));
            assertThat(all).extracting(d -> d.get("id")).containsExactlyElementsOf(expected);
            assertThat(all).extracting(d -> d.get("state"))
                    .containsExactly("failed", "failed", "succeeded", "succeeded", "succeeded");

            List<Object> walked = new ArrayList<>();
            String cursor = null;
            do {
                Map<String, Object> data = data(json(get(project, "/webhooks/" + id + "/deliveries?pageSize=2"
                        + (cursor == null ? "" : "&cursor=" + cursor)), 200));
                ((List<Map<String, Object>>) data.get("deliveries")).forEach(d -> walked.add(d.get("id")));
                cursor = (String) ((Map<String, Object>) data.get("pagination")).get("nextCursor");
            } while (cursor != null);
            assertThat(walked).containsExactlyElementsOf(expected);
            assertThat(items(project, "/webhooks/" + id + "/deliveries?state=failed")).extracting(d -> d.get("id"))
                    .containsExactlyElementsOf(redeliveries);
        }
    }

    @Test
    void theStateFilterSelectsDeliveries() {
        try (Receiver ok = Receiver.https()) {
            String project = newProject();
            Map<String, Object> webhook = createWebhook(project, ok.url("/filtered"), "action.created");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            awaitDeliveries(project, webhook.get("id"), items -> items.size() == 1
                    && "succeeded".equals(items.get(0).get("state")), WITHIN);

            String base = "/webhooks/" + webhook.get("id") + "/deliveries?state=";
            assertThat(items(project, base + "succeeded")).hasSize(1);
            assertThat(items(project, base + "failed")).isEmpty();
            assertThat(items(project, base + "pending")).isEmpty();
            assertThat(items(project, base + "cancelled")).isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> items(String project, String path) {
        return (List<Map<String, Object>>) data(json(get(project, path), 200)).get("deliveries");
    }

    @Test
    void aWebhookWithoutDeliveriesHasAnEmptyLog() {
        String project = newProject();
        Object id = createWebhook(project, "https://localhost:9/quiet", "action.created").get("id");
        Map<String, Object> data = data(json(get(project, "/webhooks/" + id + "/deliveries"), 200));
        Map<String, Object> pagination = new HashMap<>();
        pagination.put("hasMore", false);
        pagination.put("nextCursor", null);
        pagination.put("pageSize", 25);
        assertThat(data).isEqualTo(Map.of("deliveries", List.of(), "pagination", pagination));
    }

    @Test
    void badParametersAre400NamingThem() {
        String project = newProject();
        Object id = createWebhook(project, "https://localhost:9/params", "action.created").get("id");
        String base = "/webhooks/" + id + "/deliveries";
        for (String query : List.of("?state=done", "?state=", "?pageSize=0", "?pageSize=101", "?pageSize=x", "?cursor=abc")) {
            Map<String, Object> error = error(get(project, base + query), 400);
            String parameter = query.substring(1, query.indexOf('='));
            assertThat((String) error.get("message")).contains("'" + parameter + "'");
        }
        assertThat((String) error(get(project, "/webhooks/not-a-uuid/deliveries"), 400).get("message")).contains("'webhookId'");
    }

    @Test
    void theLogOfAnUnknownOrAnotherProjectsWebhookIs404() {
        String project = newProject();
        Object others = createWebhook(newProject(), "https://localhost:9/others", "action.created").get("id");
        assertThat(error(get(project, "/webhooks/" + UUID.randomUUID() + "/deliveries"), 404)).containsEntry("error", "not_found");
        assertThat(error(get(project, "/webhooks/" + others + "/deliveries"), 404)).containsEntry("error", "not_found");
    }

    @Test
    void redeliveryOfAnUnknownDeliveryOrOfAnotherWebhooksIs404() {
        try (Receiver receiver = Receiver.https()) {
            String project = newProject();
            Map<String, Object> a = createWebhook(project, receiver.url("/a"), "action.created");
            Object b = createWebhook(project, "https://localhost:9/b", "visibility.changed").get("id");
            Kafka.publish(Kafka.event("action.created", project, Events.actionCreated()));
            Object deliveryOfA = awaitDeliveries(project, a.get("id"), items -> items.size() == 1, WITHIN).get(0).get("id");

            assertThat(error(post(project, "/webhooks/" + a.get("id") + "/deliveries/" + UUID.randomUUID() + "/redeliver",
                    (String) null), 404)).containsEntry("error", "not_found");
            assertThat(error(post(project, "/webhooks/" + b + "/deliveries/" + deliveryOfA + "/redeliver", (String) null), 404))
                    .containsEntry("error", "not_found");
            assertThat(error(post(newProject(), "/webhooks/" + a.get("id") + "/deliveries/" + deliveryOfA + "/redeliver",
                    (String) null), 404)).containsEntry("error", "not_found");
            assertThat((String) error(post(project, "/webhooks/" + a.get("id") + "/deliveries/nope/redeliver", (String) null), 400)
                    .get("message")).contains("'deliveryId'");
        }
    }
}
