package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.visibility.platform.db.ArrayLiterals;
import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The session lookup of a batch of 5,000 hits (25,000 session scopes) probes traffic_sessions' index
 * under the batch transaction's settings: PostgreSQL's own choice for so many keys was to read the
 * whole table and test each row against the key array element by element (minutes a batch). The
 * batch's writes update the stored rows through their indexes too, and tell the rest apart by a set
 * difference with what they updated (not by reading the updated rows again for each row to insert).
 */
class HitLookupPlanTest extends TrafficTest {

    @Autowired
    ReactiveTransactionManager transactions;

    @Test
    void theLookupOfTwentyFiveThousandKeysProbesTheIndex() {
        UUID[] keys = Stream.generate(UUID::randomUUID).limit(25_000).sorted(SessionKeys.ORDER).toArray(UUID[]::new);
        List<String> plan = TransactionalOperator.create(transactions).transactional(
                db.sql("SELECT " + HitIngestion.SETTINGS).bind("timeout", "60000").fetch().all()
                        .thenMany(db.sql("EXPLAIN " + HitIngestion.LOOKUP).bind("keys", ArrayLiterals.uuids(keys))
                                .map(row -> row.get(0, String.class)).all()))
                .collectList().block();
        assertThat(String.join("\n", plan)).contains("Index").contains("traffic_sessions_pkey").doesNotContain("Seq Scan");
    }

    @Test
    void theWritesOfFiveThousandScopesUpdateThroughTheIndexesAndSubtractWhatTheyUpdated() {
        Pattern parameter = Pattern.compile(":(\\w+)::(\\w+)\\[]");
        Matcher m = parameter.matcher(HitIngestion.APPLY);
        DatabaseClient.GenericExecuteSpec explain = db.sql("EXPLAIN " + HitIngestion.APPLY);
        while (m.find()) {
            explain = explain.bind(m.group(1), switch (m.group(2)) {
                case "uuid" -> ArrayLiterals.uuids(Stream.generate(UUID::randomUUID).limit(5_000).toArray(UUID[]::new));
                case "text" -> ArrayLiterals.texts(IntStream.range(0, 5_000).mapToObj(i -> "/docs/" + i).toArray(String[]::new));
                default -> ArrayLiterals.numbers(IntStream.range(0, 5_000).boxed().toArray(Number[]::new));
            });
        }
        DatabaseClient.GenericExecuteSpec statement = explain;
        String plan = String.join("\n", TransactionalOperator.create(transactions).transactional(
                db.sql("SELECT " + HitIngestion.SETTINGS).bind("timeout", "60000").fetch().all()
                        .thenMany(statement.map(row -> row.get(0, String.class)).all()))
                .collectList().block());
        assertThat(plan).contains("Update on traffic_sessions").contains("Index Scan using traffic_sessions_pkey")
                .contains("Update on traffic_days").contains("Index Scan using traffic_days_pkey")
                .contains("SetOp Except All").doesNotContain("SubPlan").doesNotContain("Seq Scan");
    }
}
