package dev.visibility.auth.oauth;

import java.security.Principal;
import java.util.List;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.Unauthorized;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The consent page, which is the project selector (DESIGN.md, MCP and OAuth): the member's projects,
 * each with the capabilities the member may approve there ({@link Capabilities}); read is always
 * part of a connection. Each project is its own form, posted to {@code /oauth2/authorize} with the
 * request's {@code state}; "Deny" posts no project.
 */
@Controller
class ConsentController {

    private final RegisteredClientRepository clients;
    private final AccountRepository accounts;

    ConsentController(RegisteredClientRepository clients, AccountRepository accounts) {
        this.clients = clients;
        this.accounts = accounts;
    }

    /** One project of the selector with what may be approved there. */
    record ProjectChoice(String id, String name, List<String> offered) {
    }

    @GetMapping(AuthorizationServerSecurity.CONSENT_PAGE)
    String consent(Principal principal, @RequestParam("client_id") String clientId, @RequestParam String state,
            @RequestParam(required = false) String scope, Model model) {
        RegisteredClient client = clients.findByClientId(clientId);
        if (client == null) {
            throw new InvalidRequest("client_id names no registered client");
        }
        Member member = accounts.findMember(UUID.fromString(principal.getName())).orElseThrow(Unauthorized::new);
        List<ProjectChoice> projects = accounts.projectsOf(member).stream()
                .map(project -> new ProjectChoice(project.id().toString(), project.name(), Capabilities.offered(project)))
                .toList();
        model.addAttribute("clientName", client.getClientName());
        model.addAttribute("clientId", clientId);
        model.addAttribute("state", state);
        model.addAttribute("scopes", scope == null || scope.isBlank() ? List.of() : List.of(scope.trim().split("\\s+")));
        model.addAttribute("projects", projects);
        return "consent";
    }
}
