package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.Http.Answer;
import dev.visibility.platform.testing.SharedInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 22, drill 4: actions-service is killed ({@code SIGKILL}) while clients create actions
 * through the gateway, then started again. Every action that was committed (the service's table)
 * has its {@code action.created} on {@code public.events}, and no {@code action.created} names an
 * action that was not committed: the outbox row is written in the action's transaction.
 */
@Tag("drill")
class ActionsCrashDrillSystemTest extends SystemTest {

    private static final int WRITERS = 4;
    private static final Duration RECOVERY = Duration.ofMinutes(3);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void killedInTheMiddleOfWritesEveryCommittedActionHasItsEventAndNoEventLacksItsAction() throws Exception {
        String prefix = "drill4-" + UUID.randomUUID() + "-";
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Set<String> answered201 = ConcurrentHashMap.newKeySet();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        for (int w = 0; w < WRITERS; w++) {
            writers.submit(() -> {
                while (writing.get()) {
                    String title = prefix + sent.incrementAndGet();
                    try {
                        Answer answer = call("POST", project(), "/actions", key(), Map.of("title", title,
                                "description", "drill", "channels", List.of("content"), "priority", "medium"));
                        if (answer.status() == 201) {
                            answered201.add((String) answer.data().get("id"));
                        } else {
                            refused.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        refused.incrementAndGet();
                    }
                }
            });
        }
        try {
            Waits.until("some actions created before the kill", RECOVERY, answered201::size, n -> n >= 30);
            edge.killActions();
            int atKill = answered201.size();
            // writes go on against the dead service (503 from the gateway) for a moment, then it comes back
            Waits.until("writes refused while the service is down", RECOVERY, refused::get, n -> n >= 10);
            edge.restartActions();
            Waits.until("actions created after the restart", RECOVERY, answered201::size, n -> n >= atKill + 30);
        } finally {
            writing.set(false);
            writers.shutdown();
            assertThat(writers.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
        }

        Set<String> committed = committedActions(prefix);
        // every 201 is a committed action (a committed one whose answer was lost is committed too)
        assertThat(committed).containsAll(answered201);
        // wait for distinct actions, not a record count: the outbox may re-send a row whose ack the crash lost
        // (at-least-once), and such a duplicate must not stand in for an event still on its way
        Set<String> withEvent = new HashSet<>();
        try {
            withEvent.addAll(Waits.until("action.created of every committed action", RECOVERY,
                    () -> createdActionIds(committed), ids -> ids.containsAll(committed)));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            withEvent.addAll(createdActionIds(committed)); // reported below as lost
        }
        // no event without its action: every drill action.created names a committed action
        List<ConsumerRecord<String, String>> drillEvents = Kafka.publicEvents(r -> r.value().contains(prefix)
                && r.value().contains("\"event\":\"action.created\""));
        Set<String> orphans = new HashSet<>();
        drillEvents.forEach(r -> {
            if (!committed.contains(actionId(r))) {
                orphans.add(actionId(r));
            }
        });
        Set<String> lost = new HashSet<>(committed);
        lost.removeAll(withEvent);
        int duplicates = drillEvents.size() - new HashSet<>(drillEvents.stream().map(ActionsCrashDrillSystemTest::actionId)
                .toList()).size();
        System.out.printf("[drill 4] POSTs sent %d, answered 201 %d, refused or failed %d, committed %d,"
                + " action.created published %d, duplicates %d, lost %d, events without an action %d%n",
                sent.get(), answered201.size(), refused.get(), committed.size(), withEvent.size(), duplicates,
                lost.size(), orphans.size());
        assertThat(lost).isEmpty();
        assertThat(orphans).isEmpty();
    }

    private static Set<String> createdActionIds(Set<String> committed) {
        Set<String> ids = new HashSet<>();
        Kafka.publicEvents(r -> isCreatedOf(r, committed)).forEach(r -> ids.add(actionId(r)));
        return ids;
    }

    private static boolean isCreatedOf(ConsumerRecord<String, String> record, Set<String> actions) {
        return record.value().contains("\"event\":\"action.created\"") && actions.contains(actionId(record));
    }

    @SuppressWarnings("unchecked")
    private static String actionId(ConsumerRecord<String, String> record) {
        Map<String, Object> body = JSON.readValue(record.value(), Map.class);
        return (String) ((Map<String, Object>) body.get("data")).get("actionId");
    }

    /** The ids of the drill's actions in actions-service's table: what was committed. */
    private static Set<String> committedActions(String prefix) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl(), SharedInfrastructure.USER,
                SharedInfrastructure.PASSWORD);
                PreparedStatement query = db.prepareStatement("SELECT id FROM actions.actions WHERE title LIKE ?")) {
            query.setString(1, prefix + "%");
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }
}
