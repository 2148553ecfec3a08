package dev.visibility.gateway.routing;

/**
 * One public endpoint: its method, path pattern, owning service and the scope it needs
 * ({@code null} when every key may call it, {@link #MEMBER} for the account API, {@link #MCP}
 * for the MCP server, {@link #PUBLIC} for OAuth metadata and sign-in).
 */
public record ApiRoute(String id, String method, String path, String service, String scope, String feature) {

    public static final String NONE = null;
    public static final String MEMBER = "member";
    public static final String MCP = "mcp";
    public static final String PUBLIC = "public";

    static ApiRoute of(String id, String method, String path, String service, String scope) {
        return new ApiRoute(id, method, path, service, scope, null);
    }
}
