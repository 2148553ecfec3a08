package dev.visibility.gateway.auth;

import java.util.Set;

import dev.visibility.platform.security.Caller;

/**
 * Who is calling, as the gateway established it: an API key of one project, a signed-in
 * member (account API), or an MCP OAuth connection ({@code /api/mcp} only; {@code id} is the OAuth
 * client id, {@code userId} the signed-in member). Becomes the claims of the internal token.
 * {@code keyCreatorId} is the member who created the API key (null for members and for keys
 * without a recorded creator).
 */
public record EdgePrincipal(Kind kind, String id, String projectId, String accountId, Set<String> scopes,
        Set<String> features, String plan, boolean apiAccess, boolean paused, String keyCreatorId, String userId) {

    public enum Kind { API_KEY, MEMBER, OAUTH_CLIENT }

    /** The attribute under which the filters keep the principal on the exchange. */
    public static final String ATTRIBUTE = EdgePrincipal.class.getName();

    public EdgePrincipal {
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
        features = features == null ? Set.of() : Set.copyOf(features);
    }

    /** A principal that is not an OAuth connection. */
    public EdgePrincipal(Kind kind, String id, String projectId, String accountId, Set<String> scopes,
            Set<String> features, String plan, boolean apiAccess, boolean paused, String keyCreatorId) {
        this(kind, id, projectId, accountId, scopes, features, plan, apiAccess, paused, keyCreatorId, null);
    }

    /** A principal without a key creator. */
    public EdgePrincipal(Kind kind, String id, String projectId, String accountId, Set<String> scopes,
            Set<String> features, String plan, boolean apiAccess, boolean paused) {
        this(kind, id, projectId, accountId, scopes, features, plan, apiAccess, paused, null);
    }

    /** The rate-limit and usage key: one bucket per API key, or per member. */
    public String limitKey() {
        return switch (kind) {
            case API_KEY -> "key:" + id;
            case MEMBER -> "member:" + id;
            case OAUTH_CLIENT -> "client:" + id + ":" + userId;
        };
    }

    public Caller toCaller() {
        return switch (kind) {
            case API_KEY -> new Caller(accountId, projectId, id, null, null, scopes, features, keyCreatorId);
            case MEMBER -> new Caller(accountId, null, null, null, id, Set.of(), Set.of());
            case OAUTH_CLIENT -> new Caller(accountId, projectId, null, id, userId, scopes, features);
        };
    }
}
