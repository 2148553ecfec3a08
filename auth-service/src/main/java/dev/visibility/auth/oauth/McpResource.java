package dev.visibility.auth.oauth;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;

/**
 * The one resource this authorization server issues tokens for (RFC 8707): the MCP server at
 * {@code {issuer}/api/mcp}, where the issuer is the public origin (resolved per request from the
 * gateway's forwarded headers, or {@code suite.oauth.issuer}).
 */
public final class McpResource {

    public static final String PARAMETER = "resource";
    public static final String INVALID_TARGET = "invalid_target";
    static final String ERROR_URI = "https://datatracker.ietf.org/doc/html/rfc8707#section-2";

    private McpResource() {
    }

    public static String forIssuer(String issuer) {
        return (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer) + "/api/mcp";
    }

    /** The resource URL of the request being served. */
    public static String current() {
        return forIssuer(AuthorizationServerContextHolder.getContext().getIssuer());
    }

    /** Whether a request's {@code resource} value (String, String[] or null) names exactly the MCP resource. */
    public static boolean matches(Object value) {
        return value instanceof String text && text.equals(current());
    }

    static OAuth2Error invalidTarget() {
        return new OAuth2Error(INVALID_TARGET, "The 'resource' parameter is required and must be " + current(), ERROR_URI);
    }
}
