package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import dev.visibility.traffic.support.TrafficTest;
import org.junit.jupiter.api.Test;

/**
 * A session scope's key (traffic_sessions.key) is the same whether HitIngestion computes it or
 * migration V3 did in SQL for the rows it converted, non-ASCII text included; and the length
 * prefixes keep two scopes that concatenate to the same text apart.
 */
class SessionKeysTest extends TrafficTest {

    private static final String MIGRATION_KEY = """
            SELECT md5(p::text || ':' || octet_length(h) || ':' || h || ':' || octet_length(pre) || ':' || pre || ':' || s)::uuid
            FROM (SELECT :p::uuid AS p, :h::text AS h, :pre::text AS pre, :s::text AS s) AS x""";

    private UUID sqlKey(HitBatch.ScopeSession scope) {
        return db.sql(MIGRATION_KEY).bind("p", scope.project()).bind("h", scope.hostname()).bind("pre", scope.prefix())
                .bind("s", scope.session()).map(row -> row.get(0, UUID.class)).one().block();
    }

    @Test
    void theJavaKeyIsTheMigrationsKey() {
        UUID project = UUID.randomUUID();
        List<HitBatch.ScopeSession> scopes = List.of(
                new HitBatch.ScopeSession(project, Scopes.PROJECT, Scopes.ROOT, "s1"),
                new HitBatch.ScopeSession(project, "docs.acme.dev", "/docs/api", "bot-17"),
                new HitBatch.ScopeSession(project, "bücher.de", "/straße/日本語/😀", "sitzung-ü"));
        for (HitBatch.ScopeSession scope : scopes) {
            assertThat(SessionKeys.key(scope)).as(scope.toString()).isEqualTo(sqlKey(scope));
        }
    }

    @Test
    void scopesThatConcatenateAlikeHaveDifferentKeys() {
        UUID project = UUID.randomUUID();
        UUID a = SessionKeys.key(new HitBatch.ScopeSession(project, "a.dev", "/x", "y:z"));
        UUID b = SessionKeys.key(new HitBatch.ScopeSession(project, "a.dev", "/x:y", "z"));
        assertThat(a).isNotEqualTo(b);
        assertThat(SessionKeys.utf8Length("bücher😀")).isEqualTo("bücher😀".getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
}
