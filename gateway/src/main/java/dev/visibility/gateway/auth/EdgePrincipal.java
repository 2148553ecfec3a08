package dev.visibility.gateway.auth;

import java.util.Set;

import dev.visibility.platform.security.Caller;

/**
 * Who is calling, as the gateway established it: an API key of one project, or a signed-in
 * member (account API). Becomes the claims of the internal token. {@code keyCreatorId} is the
 * member who created the API key (null for members and for keys without a recorded creator).
 */
public record EdgePrincipal(Kind kind, String id, String projectId, String accountId, Set<String> scopes,
        Set<String> features, String plan, boolean apiAccess, boolean paused, String keyCreatorId) {

    public enum Kind { API_KEY, MEMBER }

    /** The attribute under which the filters keep the principal on the exchange. */
    public static final String ATTRIBUTE = EdgePrincipal.class.getName();

    public EdgePrincipal {
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
        features = features == null ? Set.of() : Set.copyOf(features);
    }

    /** A principal without a key creator. */
    public EdgePrincipal(Kind kind, String id, String projectId, String accountId, Set<String> scopes,
            Set<String> features, String plan, boolean apiAccess, boolean paused) {
        this(kind, id, projectId, accountId, scopes, features, plan, apiAccess, paused, null);
    }

    /** The rate-limit and usage key: one bucket per API key, or per member. */
    public String limitKey() {
        return (kind == Kind.API_KEY ? "key:" : "member:") + id;
    }

    public Caller toCaller() {
        return kind == Kind.API_KEY
                ? new Caller(accountId, projectId, id, null, null, scopes, features, keyCreatorId)
                : new Caller(accountId, null, null, null, id, Set.of(), Set.of());
    }
}
