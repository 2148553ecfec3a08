package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;

/**
 * A session scope's key (traffic_sessions.key) is the same whether HitIngestion computes it or
 * migration V3 did in SQL for the rows it converted, non-ASCII text included; the length prefixes
 * keep two scopes that concatenate to the same text apart; and a batch's keys are sorted in
 * PostgreSQL's uuid order.
 */
class SessionKeysTest extends TrafficTest {

    private static final String MIGRATION_KEY = """
            SELECT md5(p::text || ':' || octet_length(h) || ':' || h || ':' || octet_length(pre) || ':' || pre || ':' || s)::uuid
            FROM (SELECT :p::uuid AS p, :h::text AS h, :pre::text AS pre, :s::text AS s) AS x""";

    private record ScopeSession(UUID project, String hostname, String prefix, String session) {

        UUID javaKey() {
            return SessionKeys.key(project, hostname, prefix, session);
        }
    }

    private UUID sqlKey(ScopeSession scope) {
        return db.sql(MIGRATION_KEY).bind("p", scope.project()).bind("h", scope.hostname()).bind("pre", scope.prefix())
                .bind("s", scope.session()).map(row -> row.get(0, UUID.class)).one().block();
    }

    @Test
    void theJavaKeyIsTheMigrationsKey() {
        UUID project = UUID.randomUUID();
        List<ScopeSession> scopes = List.of(
                new ScopeSession(project, Scopes.PROJECT, Scopes.ROOT, "s1"),
                new ScopeSession(project, "docs.acme.dev", "/docs/api", "bot-17"),
                new ScopeSession(project, "bücher.de", "/straße/日本語/😀", "sitzung-ü"));
        for (ScopeSession scope : scopes) {
            assertThat(scope.javaKey()).as(scope.toString()).isEqualTo(sqlKey(scope));
        }
    }

    @Test
    void scopesThatConcatenateAlikeHaveDifferentKeys() {
        UUID project = UUID.randomUUID();
        UUID a = new ScopeSession(project, "a.dev", "/x", "y:z").javaKey();
        UUID b = new ScopeSession(project, "a.dev", "/x:y", "z").javaKey();
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void keysAreSortedInPostgresqlsUuidOrder() {
        java.util.Random random = new java.util.Random(20261126);
        List<UUID> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            // both halves over the whole long range: the top bit set is where signed and unsigned order differ
            keys.add(new UUID(random.nextLong(), random.nextLong()));
        }
        keys.add(new UUID(Long.MIN_VALUE, 0));
        keys.add(new UUID(-1L, -1L));
        keys.add(new UUID(0, Long.MIN_VALUE));
        keys.add(new UUID(0, 0));
        // keys that share their top bits (one bucket of SessionKeys.order, sorted by comparisons) and
        // keys that share their whole first half
        long top = random.nextLong() & 0xFFFF_F000_0000_0000L | 0x8000_0000_0000_0000L;
        for (int i = 0; i < 100; i++) {
            keys.add(new UUID(top | random.nextLong() >>> 20, random.nextLong()));
            keys.add(new UUID(top, random.nextLong()));
        }
        java.util.Collections.shuffle(keys, random);

        List<UUID> postgres = db.sql("SELECT u FROM unnest(:keys::uuid[]) AS u ORDER BY u")
                .bind("keys", keys.toArray(UUID[]::new)).map(row -> row.get(0, UUID.class)).all().collectList().block();
        assertThat(keys.stream().sorted(SessionKeys.ORDER).toList()).isEqualTo(postgres);
        long[] high = keys.stream().mapToLong(UUID::getMostSignificantBits).toArray();
        long[] low = keys.stream().mapToLong(UUID::getLeastSignificantBits).toArray();
        assertThat(java.util.Arrays.stream(SessionKeys.order(high, low)).mapToObj(keys::get).toList()).isEqualTo(postgres);
    }
}
