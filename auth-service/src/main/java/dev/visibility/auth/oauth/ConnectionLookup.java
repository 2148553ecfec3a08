package dev.visibility.auth.oauth;

import java.util.List;
import java.util.Optional;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Service;

/**
 * What a connection may do right now, for the edge ({@code GET /internal/v1/oauth-connections/{id}}):
 * the approved capabilities narrowed to the member's current permissions. Empty when the
 * connection is unknown or revoked, or its member may do nothing on the project any more.
 */
@Service
public class ConnectionLookup {

    private final Connections connections;
    private final AccountRepository accounts;
    private final RegisteredClientRepository clients;

    ConnectionLookup(Connections connections, AccountRepository accounts, RegisteredClientRepository clients) {
        this.connections = connections;
        this.accounts = accounts;
        this.clients = clients;
    }

    public record ActiveConnection(String connectionId, String memberId, String accountId, String projectId,
            String clientId, List<String> capabilities) {
    }

    public Optional<ActiveConnection> find(String connectionId) {
        return connections.find(connectionId).filter(Connections.Connection::active).flatMap(connection -> {
            List<String> capabilities = AccessTokenClaims.currentCapabilities(accounts, connection);
            Optional<Member> member = accounts.findMember(connection.memberId());
            RegisteredClient client = clients.findById(connection.registeredClientId());
            if (capabilities.isEmpty() || member.isEmpty() || client == null) {
                return Optional.empty();
            }
            return Optional.of(new ActiveConnection(connection.authorizationId(), connection.memberId().toString(),
                    member.get().accountId().toString(), connection.projectId().toString(), client.getClientId(), capabilities));
        });
    }
}
