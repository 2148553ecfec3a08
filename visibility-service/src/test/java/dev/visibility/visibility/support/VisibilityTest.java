package dev.visibility.visibility.support;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.Http;
import dev.visibility.platform.testing.ServiceTest;
import dev.visibility.platform.testing.TestTokens;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the module's integration tests ({@link ServiceTest}: the one Spring context on the shared
 * broker and database, records through the real topics, HTTP through the real server), with what
 * is visibility-service's own: the public events it publishes and its tokens.
 */
public abstract class VisibilityTest extends ServiceTest {

    /** The public events of one project, parsed, in the order they were published. */
    protected static List<Map<String, Object>> publicEvents(UUID projectId, int atLeast) {
        return parse(TopicRecorder.of(Topics.PUBLIC_EVENTS).await(r -> projectId.toString().equals(r.key()), atLeast, WAIT));
    }

    protected static List<Map<String, Object>> parse(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> Http.parse(r.value())).toList();
    }

    /**
     * The public events of one project, once {@code last} (the event that a test published last,
     * on the project's key: a sentinel) is among them; every event caused before it is then there too.
     */
    protected static List<Map<String, Object>> publicEventsThrough(UUID projectId, Predicate<Map<String, Object>> last) {
        return parse(TopicRecorder.of(Topics.PUBLIC_EVENTS).awaitUntil(r -> projectId.toString().equals(r.key()),
                records -> parse(records).stream().anyMatch(last), WAIT));
    }

    /** Asserts the error shape of spec 7 with the given status and answers the parsed body. */
    protected Map<String, Object> errorBody(WebTestClient.RequestHeadersSpec<?> request, int status) {
        return Http.error(request, status);
    }

    /** A bearer header for an API key of the project, in the given account, with the given features. */
    protected static String bearer(UUID projectId, String accountId, String... features) {
        return TestTokens.bearer(TestTokens.mint(new Caller(accountId, projectId.toString(), "key-test", null, null,
                Set.of("visibility.read"), Set.of(features))));
    }

    protected static String bearer(UUID projectId) {
        return bearer(projectId, TestTokens.ACCOUNT);
    }
}
