package dev.visibility.platform.testing;

import java.time.Duration;
import java.util.Set;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;

/**
 * Mints internal tokens for tests, with the same secret the shared test properties give every
 * service, until (and besides) the gateway minting them for real.
 */
public final class TestTokens {

    public static final String SECRET = "test-only-internal-token-secret-0123456789";
    public static final String CURSOR_SECRET = "test-only-cursor-secret-0123456789abcdef";
    public static final String ACCOUNT = "00000000-0000-4000-8000-0000000000a1";

    private static final InternalTokenMinter MINTER = new InternalTokenMinter(
            new InternalTokenProperties(true, SECRET, null, null, Duration.ofMinutes(10)));

    private TestTokens() {
    }

    /** An internal token for an API key of {@code projectId} with the given scopes. */
    public static String forProject(String projectId, String... scopes) {
        return mint(new Caller(ACCOUNT, projectId, "key-test", null, null, Set.of(scopes), Set.of()));
    }

    public static String mint(Caller caller) {
        return MINTER.mint(caller);
    }

    /** The {@code Authorization} header value for a token. */
    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** A token signed with another secret: every service must refuse it. */
    public static String forgedForProject(String projectId) {
        InternalTokenMinter forger = new InternalTokenMinter(
                new InternalTokenProperties(true, "another-secret-that-the-services-do-not-know", null, null, null));
        return forger.mint(new Caller(ACCOUNT, projectId, "key-forged", null, null, Set.of(), Set.of()));
    }
}
