package dev.visibility.auth.oauth;

import java.util.ArrayList;
import java.util.List;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.ProjectAccess;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * The claims of every access token (DESIGN.md, MCP and OAuth): {@code aud} the MCP resource URL,
 * {@code client_id}, {@code sub} the member (Spring sets it: the principal's name is the member id),
 * {@code project_id} and {@code capabilities} of the connection. The capabilities are the approved
 * ones narrowed to what the member may approve now: a refresh never widens them, and a member who
 * lost {@code settings.manage} gets read-only tokens. No token for a revoked connection, or for a
 * member who left the project ({@code invalid_grant}).
 */
final class AccessTokenClaims implements OAuth2TokenCustomizer<JwtEncodingContext> {

    static final String CLIENT_ID = "client_id";
    static final String PROJECT_ID = "project_id";
    static final String CAPABILITIES = "capabilities";
    static final String CONNECTION_ID = "connection_id";

    private final AccountRepository accounts;
    private final Connections connections;

    AccessTokenClaims(AccountRepository accounts, Connections connections) {
        this.accounts = accounts;
        this.connections = connections;
    }

    @Override
    public void customize(JwtEncodingContext context) {
        if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType()) || context.getAuthorization() == null) {
            return;
        }
        Connections.Connection connection = connections.find(context.getAuthorization().getId())
                .filter(Connections.Connection::active)
                .orElseThrow(AccessTokenClaims::refused);
        List<String> capabilities = currentCapabilities(accounts, connection);
        if (capabilities.isEmpty()) {
            throw refused();
        }
        // ArrayLists: the claims are kept in the authorization's token metadata, whose JSON reader
        // accepts the usual collection types only (not List.of's)
        context.getClaims()
                .audience(new ArrayList<>(List.of(McpResource.forIssuer(context.getAuthorizationServerContext().getIssuer()))))
                .claim(CLIENT_ID, context.getRegisteredClient().getClientId())
                .claim(PROJECT_ID, connection.projectId().toString())
                .claim(CAPABILITIES, new ArrayList<>(capabilities))
                .claim(CONNECTION_ID, connection.authorizationId());
    }

    /** The approved capabilities the member still may approve on the project (empty: none, or no longer a member). */
    static List<String> currentCapabilities(AccountRepository accounts, Connections.Connection connection) {
        return accounts.findMember(connection.memberId())
                .flatMap((Member member) -> accounts.findProject(member, connection.projectId()))
                .map((ProjectAccess project) -> Capabilities.within(connection.capabilities(), Capabilities.offered(project)))
                .orElse(List.of());
    }

    private static OAuth2AuthenticationException refused() {
        return new OAuth2AuthenticationException(new OAuth2Error(OAuth2ErrorCodes.INVALID_GRANT,
                "The connection was revoked or its member no longer belongs to the project", null));
    }

}
