package dev.visibility.auth.dashboard;

import java.security.Principal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.ProjectAccess;
import dev.visibility.auth.oauth.Connections;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.error.Unauthorized;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The member's MCP connections (issue 20): each authorization with its registered client, the
 * chosen project and the approved capabilities, and a revoke button. Revoking removes the
 * authorization (its refresh token stops working at once) and marks the connection revoked, which
 * the internal connection lookup answers with 404 from the commit on.
 */
@Controller
class ConnectionsController {

    private final Connections connections;
    private final RegisteredClientRepository clients;
    private final OAuth2AuthorizationService authorizations;
    private final AccountRepository accounts;

    ConnectionsController(Connections connections, RegisteredClientRepository clients,
            OAuth2AuthorizationService authorizations, AccountRepository accounts) {
        this.connections = connections;
        this.clients = clients;
        this.authorizations = authorizations;
        this.accounts = accounts;
    }

    /** One row of the page. */
    record Row(String id, String clientName, String clientId, String projectName, List<String> capabilities,
            String createdAt, boolean active) {
    }

    @GetMapping("/dashboard/connections")
    String list(Principal principal, Model model) {
        Member member = member(principal);
        Map<UUID, String> projectNames = new HashMap<>();
        for (ProjectAccess project : accounts.projectsOf(member)) {
            projectNames.put(project.id(), project.name());
        }
        List<Row> rows = connections.ofMember(member.id()).stream().map(connection -> {
            RegisteredClient client = clients.findById(connection.registeredClientId());
            return new Row(connection.authorizationId(), client == null ? "(deleted client)" : client.getClientName(),
                    client == null ? "" : client.getClientId(),
                    projectNames.getOrDefault(connection.projectId(), connection.projectId().toString()),
                    connection.capabilities(), connection.createdAt().toString(), connection.active());
        }).toList();
        model.addAttribute("connections", rows);
        return "connections";
    }

    @PostMapping("/dashboard/connections/{connectionId}/revoke")
    String revoke(Principal principal, @PathVariable String connectionId, RedirectAttributes redirect, Model model,
            HttpServletResponse response) {
        Member member = member(principal);
        if (!connections.revoke(connectionId, member.id())) {
            return DashboardController.problem(new NotFound("No active connection of yours has this id"), model, response);
        }
        OAuth2Authorization authorization = authorizations.findById(connectionId);
        if (authorization != null) {
            authorizations.remove(authorization);
        }
        redirect.addFlashAttribute("notice", "The connection was revoked: its tokens are refused from now on.");
        return "redirect:/dashboard/connections";
    }

    private Member member(Principal principal) {
        return accounts.findMember(UUID.fromString(principal.getName())).orElseThrow(Unauthorized::new);
    }
}
