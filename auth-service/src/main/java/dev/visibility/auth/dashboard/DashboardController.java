package dev.visibility.auth.dashboard;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.MemberAccess;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.ProjectAccess;
import dev.visibility.auth.keys.ApiKeyCreated;
import dev.visibility.auth.keys.ApiKeyScopes;
import dev.visibility.auth.keys.ApiKeyService;
import dev.visibility.auth.keys.ApiKeySummary;
import dev.visibility.auth.keys.CreateApiKeyRequest;
import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.web.RequestBodies;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import tools.jackson.databind.ObjectMapper;

/**
 * The signed-in member's dashboard (DESIGN.md, Dashboard): the projects, and per project the API
 * keys (spec 5.2, 5.3) through the account API's own service with the account API's checks and
 * answers: create with a name and scopes (the full key shown once), the list with visible prefixes
 * and scopes, revoke after a confirmation page. Create and revoke show only to members with
 * {@code settings.manage}; the service refuses them to others anyway. Errors are shown on the page
 * with the account API's message and status.
 */
@Controller
class DashboardController {

    private final MemberCredentials members;
    private final AccountRepository accounts;
    private final MemberAccess access;
    private final ApiKeyService keys;
    private final RequestBodies bodies;
    private final ObjectMapper mapper;

    DashboardController(MemberCredentials members, AccountRepository accounts, MemberAccess access, ApiKeyService keys,
            RequestBodies bodies, ObjectMapper mapper) {
        this.members = members;
        this.accounts = accounts;
        this.access = access;
        this.keys = keys;
        this.bodies = bodies;
        this.mapper = mapper;
    }

    @GetMapping("/dashboard")
    String dashboard(Principal principal, Model model) {
        MemberCredentials.SignedInMember signedIn = members.find(UUID.fromString(principal.getName()))
                .orElseThrow(Unauthorized::new);
        model.addAttribute("member", signedIn);
        model.addAttribute("projects", accounts.projectsOf(member(principal)));
        return "dashboard";
    }

    @GetMapping("/dashboard/projects/{projectId}/api-keys")
    String apiKeys(Principal principal, @PathVariable String projectId, Model model, HttpServletResponse response) {
        Member member = member(principal);
        try {
            ProjectAccess project = access.requireProject(member, projectId);
            List<ApiKeySummary> list = keys.list(member, projectId).apiKeys();
            model.addAttribute("project", project);
            model.addAttribute("keys", list);
            model.addAttribute("manage", project.permissions().contains(Permissions.SETTINGS_MANAGE));
            model.addAttribute("apiAccess", project.plan().apiAccess());
            model.addAttribute("allScopes", ApiKeyScopes.ALL);
            model.addAttribute("defaultScopes", ApiKeyScopes.DEFAULTS);
            return "api-keys";
        } catch (ApiException e) {
            return problem(e, model, response);
        }
    }

    @PostMapping("/dashboard/projects/{projectId}/api-keys")
    String createApiKey(Principal principal, @PathVariable String projectId, @RequestParam(required = false) String name,
            @RequestParam(name = "scope", required = false) List<String> scopes,
            @RequestParam(name = "scopeMode", defaultValue = "defaults") String scopeMode, Model model,
            HttpServletResponse response) {
        Member member = member(principal);
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            if ("narrowed".equals(scopeMode)) {
                body.put("scopes", scopes == null ? List.of() : scopes);
            }
            ApiKeyCreated created = keys.createForMember(member, projectId,
                    () -> bodies.read(mapper.valueToTree(body), CreateApiKeyRequest.class));
            model.addAttribute("project", access.requireProject(member, projectId));
            model.addAttribute("created", created);
            response.setHeader("Cache-Control", "no-store");
            return "api-key-created";
        } catch (ApiException e) {
            return problem(e, model, response);
        }
    }

    @GetMapping("/dashboard/projects/{projectId}/api-keys/{keyId}/revoke")
    String confirmRevoke(Principal principal, @PathVariable String projectId, @PathVariable String keyId, Model model,
            HttpServletResponse response) {
        Member member = member(principal);
        try {
            ProjectAccess project = access.requireProject(member, projectId);
            project.requirePermission(Permissions.SETTINGS_MANAGE);
            ApiKeySummary key = keys.list(member, projectId).apiKeys().stream().filter(k -> k.id().equals(keyId))
                    .findFirst().orElseThrow(() -> new dev.visibility.platform.error.NotFound("No API key with this id exists in the project"));
            model.addAttribute("project", project);
            model.addAttribute("key", key);
            return "api-key-revoke";
        } catch (ApiException e) {
            return problem(e, model, response);
        }
    }

    @PostMapping("/dashboard/projects/{projectId}/api-keys/{keyId}/revoke")
    String revoke(Principal principal, @PathVariable String projectId, @PathVariable String keyId, Model model,
            HttpServletResponse response, RedirectAttributes redirect) {
        Member member = member(principal);
        try {
            keys.revoke(member, projectId, keyId);
            redirect.addFlashAttribute("notice", "The key was revoked. It stops working at once, for good.");
            return "redirect:/dashboard/projects/" + projectId + "/api-keys";
        } catch (ApiException e) {
            return problem(e, model, response);
        }
    }

    private Member member(Principal principal) {
        return accounts.findMember(UUID.fromString(principal.getName())).orElseThrow(Unauthorized::new);
    }

    static String problem(ApiException e, Model model, HttpServletResponse response) {
        response.setStatus(e.status());
        model.addAttribute("status", e.status());
        model.addAttribute("message", e.getMessage());
        return "problem";
    }
}
