package dev.visibility.platform.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of a WebFlux service's integration tests: the service's one Spring context on the shared
 * broker and database ({@link SharedInfrastructure}), records published on the real topics as their
 * producers publish them ({@link TestKafka}), requests through the real server ({@link RunningServerTest}),
 * rows read back through the service's own {@link DatabaseClient}, and every wait an Awaitility
 * wait with the deadline {@link #WAIT}. A module's base (say {@code FooTest extends ServiceTest})
 * adds only what is its own: its tokens' scopes, its records, its answers.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ServiceTest extends RunningServerTest {

    /** How long a test waits for a condition (a loaded two-core machine is slow; a real miss still fails). */
    protected static final Duration WAIT = Duration.ofSeconds(90);
    /** A plain mapper for reading answers and records (the service's own is {@link #mapper}). */
    protected static final ObjectMapper JSON = JsonMapper.builder().build();

    @Autowired
    protected DatabaseClient db;

    /** The service's own ObjectMapper: records are serialized with it, as the producers' match it. */
    @Autowired
    protected ObjectMapper mapper;

    /**
     * Publishes records on {@code topic} with {@code key}, in order, and waits for the broker's
     * acknowledgements: objects serialized with the service's {@link #mapper}, Strings as they are.
     */
    protected void publish(String topic, String key, List<?> values) {
        TestKafka.publish(topic, key, values.stream()
                .map(value -> value instanceof String text ? text : mapper.writeValueAsString(value)).toList());
    }

    /** One record (a String as it is, anything else serialized with the service's mapper). */
    protected void publish(String topic, String key, Object value) {
        publish(topic, key, List.of(value));
    }

    /**
     * The first column of the first row of {@code sql} as a number (0 when it is NULL), with
     * {@code binds} bound to {@code $1}, {@code $2}, ... in order.
     */
    protected long count(String sql, Object... binds) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < binds.length; i++) {
            spec = spec.bind(i, binds[i]);
        }
        Long value = spec.map(row -> row.get(0) instanceof Number number ? number.longValue() : 0L).one()
                .block(Http.ANSWER_TIMEOUT);
        return value == null ? 0 : value;
    }

    /** Waits (up to {@link #WAIT}) until {@link #count} answers {@code expected}. */
    protected void awaitCount(long expected, String sql, Object... binds) {
        await(expected + " from " + sql).atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> count(sql, binds) == expected);
    }

    /** Waits (up to {@link #WAIT}) until {@code condition} holds; {@code what} names it in the failure. */
    protected static void awaitTrue(String what, BooleanSupplier condition) {
        await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
    }
}
