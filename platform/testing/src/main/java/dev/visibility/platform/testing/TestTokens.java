package dev.visibility.platform.testing;

import java.security.KeyPair;
import java.time.Duration;
import java.util.Set;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenKeys;
import dev.visibility.platform.security.InternalTokenMinter;
import dev.visibility.platform.security.InternalTokenProperties;

/**
 * Mints internal tokens for tests with a key pair made once per test JVM (never committed): the
 * shared test properties give every service its public key and the gateway its private key.
 */
public final class TestTokens {

    private static final KeyPair KEYS = InternalTokenKeys.generate();
    /** The private key of this JVM's tests (base64 of PKCS#8): what a gateway signs with. */
    public static final String PRIVATE_KEY = InternalTokenKeys.encode(KEYS.getPrivate());
    /** The matching public key (base64 of X.509): what every service verifies with. */
    public static final String PUBLIC_KEY = InternalTokenKeys.encode(KEYS.getPublic());
    public static final String CURSOR_SECRET = "test-only-cursor-secret-0123456789abcdef";
    public static final String ACCOUNT = "00000000-0000-4000-8000-0000000000a1";

    private static final InternalTokenMinter MINTER = new InternalTokenMinter(
            new InternalTokenProperties(true, PRIVATE_KEY, PUBLIC_KEY, null, null, Duration.ofMinutes(10)));

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

    /** A token signed with another key pair: every service must refuse it. */
    public static String forgedForProject(String projectId) {
        KeyPair other = InternalTokenKeys.generate();
        InternalTokenMinter forger = new InternalTokenMinter(new InternalTokenProperties(true,
                InternalTokenKeys.encode(other.getPrivate()), InternalTokenKeys.encode(other.getPublic()), null, null, null));
        return forger.mint(new Caller(ACCOUNT, projectId, "key-forged", null, null, Set.of(), Set.of()));
    }
}
