package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import dev.visibility.platform.db.ArrayLiterals;
import org.junit.jupiter.api.Test;

/**
 * The session lookup of a batch of 5,000 hits (25,000 session scopes) probes traffic_sessions' index
 * under the batch transaction's settings: PostgreSQL's own choice for so many keys was to read the
 * whole table and test each row against the key array element by element (minutes a batch).
 */
class HitLookupPlanTest extends HitStatementTest {

    @Test
    void theLookupOfTwentyFiveThousandKeysProbesTheIndex() {
        UUID[] keys = Stream.generate(UUID::randomUUID).limit(25_000).sorted(SessionKeys.ORDER).toArray(UUID[]::new);
        List<String> plan = inBatchTransaction(db.sql("EXPLAIN " + HitIngestion.LOOKUP).bind("keys", ArrayLiterals.uuids(keys))
                .map(row -> row.get(0, String.class)).all())
                .collectList().block();
        assertThat(String.join("\n", plan)).contains("Index").contains("traffic_sessions_pkey").doesNotContain("Seq Scan");
    }
}
