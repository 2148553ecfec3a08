package dev.visibility.auth.oauth;

import java.util.List;
import java.util.function.Supplier;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;

/**
 * The signing keys, read (and on the very first start of a database, made) when a token is first
 * signed or the JWKS first asked for, not while the service starts: making the RSA key costs about
 * a CPU-second on a JVM that has just started, on the critical path of a first {@code ./suite up},
 * for a key that most starts never use. Read once, then kept; a read that fails is tried again
 * by the next request.
 */
final class LazyJwkSource implements JWKSource<SecurityContext> {

    private final Supplier<JWKSet> load;
    private volatile JWKSet keys;

    LazyJwkSource(Supplier<JWKSet> load) {
        this.load = load;
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        try {
            return selector.select(keys());
        } catch (RuntimeException e) {
            throw new KeySourceException("the signing keys could not be read: " + e.getMessage(), e);
        }
    }

    JWKSet keys() {
        JWKSet loaded = keys;
        if (loaded == null) {
            synchronized (this) {
                loaded = keys;
                if (loaded == null) {
                    loaded = load.get();
                    keys = loaded;
                }
            }
        }
        return loaded;
    }
}
