package dev.visibility.platform.cursor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;

import dev.visibility.platform.error.InvalidParameter;
import org.junit.jupiter.api.Test;

/** DESIGN.md "Cursors"; spec 7 (400 for a cursor of another scope) and 8 (at most 2000 characters, E2 life 48 h). */
class CursorCodecTest {

    private static final byte[] SECRET = "cursor-test-secret-0123456789abcdefgh".getBytes(StandardCharsets.UTF_8);
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private final CursorCodec codec = new CursorCodec(SECRET, Clock.fixed(T0, ZoneOffset.UTC));
    private final String scope = CursorCodec.fingerprint("project-1", "test-1", "run-1", 50);

    @Test
    void roundTripReturnsThePositionAndIssueTime() {
        String cursor = codec.encode(scope, "seq=41|id=0a1b");
        CursorCodec.Decoded decoded = codec.decode(cursor, scope);
        assertThat(decoded.position()).isEqualTo("seq=41|id=0a1b");
        assertThat(decoded.issuedAt()).isEqualTo(T0);
        assertThat(cursor).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
    }

    @Test
    void tamperedCursorIsRejectedNamingTheParameter() {
        String cursor = codec.encode(scope, "seq=41");
        String payload = new String(Base64.getUrlDecoder().decode(cursor.substring(0, cursor.indexOf('.'))),
                StandardCharsets.UTF_8);
        String forged = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.replace("seq=41", "seq=99").getBytes(StandardCharsets.UTF_8))
                + cursor.substring(cursor.indexOf('.'));
        assertRejected(forged, scope, "not a cursor issued by this API");
        char last = cursor.charAt(cursor.length() - 1);
        assertRejected(cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A'), scope,
                "not a cursor issued by this API");
        assertRejected("not-a-cursor", scope, "not a cursor issued by this API");
        assertRejected("!!!.???", scope, "not a cursor issued by this API");
    }

    @Test
    void cursorOfAnotherScopeIsRejected() {
        String cursor = codec.encode(scope, "seq=41");
        assertRejected(cursor, CursorCodec.fingerprint("project-1", "test-1", "run-2", 50), "another scope");
        assertRejected(cursor, CursorCodec.fingerprint("project-1", "test-1", "run-1", 20), "another scope");
    }

    @Test
    void cursorSignedWithAnotherSecretIsRejected() {
        CursorCodec other = new CursorCodec("another-secret-0123456789abcdefghijklmn".getBytes(StandardCharsets.UTF_8));
        assertRejected(other.encode(scope, "seq=41"), scope, "not a cursor issued by this API");
    }

    @Test
    void expiredCursorIsRejectedAndAFreshOneAccepted() {
        String cursor = codec.encode(scope, "p", Duration.ofHours(48));
        CursorCodec later = new CursorCodec(SECRET, Clock.fixed(T0.plus(Duration.ofHours(48)), ZoneOffset.UTC));
        CursorCodec earlier = new CursorCodec(SECRET, Clock.fixed(T0.plus(Duration.ofHours(47)), ZoneOffset.UTC));
        assertThat(earlier.decode(cursor, scope).position()).isEqualTo("p");
        assertThatThrownBy(() -> later.decode(cursor, scope))
                .isInstanceOf(InvalidParameter.class)
                .hasMessageContaining("expired");
    }

    @Test
    void cursorOverTwoThousandCharactersIsRejectedBeforeDecoding() {
        String longCursor = "a".repeat(CursorCodec.MAX_LENGTH + 1);
        assertRejected(longCursor, scope, "longer than 2000 characters");
    }

    @Test
    void encodingAPositionThatWouldExceedTheLimitFails() {
        assertThatThrownBy(() -> codec.encode(scope, "x".repeat(1600)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(codec.encode(scope, "x".repeat(1400)).length()).isLessThanOrEqualTo(CursorCodec.MAX_LENGTH);
    }

    @Test
    void fingerprintSeparatesPartsUnambiguously() {
        assertThat(CursorCodec.fingerprint("ab", "c")).isNotEqualTo(CursorCodec.fingerprint("a", "bc"));
        assertThat(CursorCodec.fingerprint("a", "b")).isEqualTo(CursorCodec.fingerprint("a", "b"));
    }

    private void assertRejected(String cursor, String expectedScope, String messagePart) {
        assertThatThrownBy(() -> codec.decode(cursor, expectedScope))
                .isInstanceOfSatisfying(InvalidParameter.class, e -> {
                    assertThat(e.parameter()).isEqualTo("cursor");
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.body().error()).isEqualTo("invalid_request");
                })
                .hasMessageContaining("'cursor'")
                .hasMessageContaining(messagePart);
    }
}
