package dev.visibility.auth.dashboard;

import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.auth.accounts.AccountRepository;
import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.MemberAccess;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.ProjectAccess;
import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.events.EventName;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The webhooks page (spec 5.11, 6.4; DESIGN.md, Dashboard): for members with
 * {@code settings.manage} on a project of the Plus plan or above, the active subscriptions,
 * create (URL and events; the secret shown once), rotate (the new secret shown once), delete
 * after a confirmation, and each subscription's delivery log with every attempt and a redeliver
 * button. Every action is a call of the public API through the gateway with the session's key
 * ({@link SessionApiKeys}); the API's refusals are shown with its message and status. Others see
 * why the page is not for them (the reason, and a 403).
 */
@Controller
@RequestMapping("/dashboard/projects/{projectId}/webhooks")
class WebhooksController {

    private final AccountRepository accounts;
    private final MemberAccess access;
    private final SessionApiKeys sessionKeys;
    private final WebhookApi api;

    WebhooksController(AccountRepository accounts, MemberAccess access, SessionApiKeys sessionKeys, WebhookApi api) {
        this.accounts = accounts;
        this.access = access;
        this.sessionKeys = sessionKeys;
        this.api = api;
    }

    @GetMapping
    String list(Principal principal, HttpSession session, @PathVariable String projectId, Model model,
            HttpServletResponse response) {
        try {
            Allowed allowed = allowed(principal, projectId);
            model.addAttribute("project", allowed.project());
            model.addAttribute("webhooks", api.list(allowed.key(session), projectId));
            model.addAttribute("events", EventName.wireNames());
            return "webhooks";
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @PostMapping
    String create(Principal principal, HttpSession session, @PathVariable String projectId,
            @RequestParam(required = false) String url, @RequestParam(name = "event", required = false) List<String> events,
            Model model, HttpServletResponse response) {
        try {
            Allowed allowed = allowed(principal, projectId);
            Map<String, Object> created = api.create(allowed.key(session), projectId, url == null ? "" : url.strip(),
                    events == null ? List.of() : events);
            return secretShown(model, response, allowed.project(), created, "Webhook created");
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @PostMapping("/{webhookId}/rotate-secret")
    String rotate(Principal principal, HttpSession session, @PathVariable String projectId, @PathVariable String webhookId,
            Model model, HttpServletResponse response) {
        try {
            Allowed allowed = allowed(principal, projectId);
            String secret = api.rotate(allowed.key(session), projectId, webhookId);
            return secretShown(model, response, allowed.project(), Map.of("id", webhookId, "secret", secret),
                    "Signing secret rotated");
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @GetMapping("/{webhookId}/delete")
    String confirmDelete(Principal principal, HttpSession session, @PathVariable String projectId,
            @PathVariable String webhookId, Model model, HttpServletResponse response) {
        try {
            Allowed allowed = allowed(principal, projectId);
            Map<String, Object> webhook = api.list(allowed.key(session), projectId).stream()
                    .filter(w -> webhookId.equals(w.get("id"))).findFirst()
                    .orElseThrow(() -> new dev.visibility.platform.error.NotFound("No active webhook with this id exists in the project"));
            model.addAttribute("project", allowed.project());
            model.addAttribute("webhook", webhook);
            return "webhook-delete";
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @PostMapping("/{webhookId}/delete")
    String delete(Principal principal, HttpSession session, @PathVariable String projectId, @PathVariable String webhookId,
            Model model, HttpServletResponse response, RedirectAttributes redirect) {
        try {
            Allowed allowed = allowed(principal, projectId);
            api.delete(allowed.key(session), projectId, webhookId);
            redirect.addFlashAttribute("notice", "The webhook was deleted: no further deliveries are made to it.");
            return "redirect:/dashboard/projects/" + allowed.project().id() + "/webhooks";
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @GetMapping("/{webhookId}/deliveries")
    String deliveries(Principal principal, HttpSession session, @PathVariable String projectId,
            @PathVariable String webhookId, @RequestParam(required = false) String cursor, Model model,
            HttpServletResponse response) {
        try {
            Allowed allowed = allowed(principal, projectId);
            Map<String, Object> page = api.deliveries(allowed.key(session), projectId, webhookId, cursor);
            model.addAttribute("project", allowed.project());
            model.addAttribute("webhookId", webhookId);
            model.addAttribute("deliveries", page.getOrDefault("deliveries", List.of()));
            model.addAttribute("pagination", page.getOrDefault("pagination", Map.of()));
            return "webhook-deliveries";
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    @PostMapping("/{webhookId}/deliveries/{deliveryId}/redeliver")
    String redeliver(Principal principal, HttpSession session, @PathVariable String projectId,
            @PathVariable String webhookId, @PathVariable String deliveryId, Model model, HttpServletResponse response,
            RedirectAttributes redirect) {
        try {
            Allowed allowed = allowed(principal, projectId);
            Map<String, Object> delivery = api.redeliver(allowed.key(session), projectId, webhookId, deliveryId);
            redirect.addFlashAttribute("notice", "Redelivery queued as delivery " + delivery.get("id") + ".");
            return "redirect:/dashboard/projects/" + allowed.project().id() + "/webhooks/"
                    + UUID.fromString(webhookId) + "/deliveries";
        } catch (IllegalArgumentException e) {
            return DashboardController.problem(new dev.visibility.platform.error.NotFound("No webhook with this id"), model,
                    response);
        } catch (ApiException e) {
            return DashboardController.problem(e, model, response);
        }
    }

    private String secretShown(Model model, HttpServletResponse response, ProjectAccess project, Map<String, Object> webhook,
            String title) {
        model.addAttribute("project", project);
        model.addAttribute("webhook", webhook);
        model.addAttribute("title", title);
        response.setHeader("Cache-Control", "no-store");
        return "webhook-secret";
    }

    /** The member may manage this project's webhooks, and the project's plan has them. */
    private Allowed allowed(Principal principal, String projectId) {
        Member member = accounts.findMember(UUID.fromString(principal.getName())).orElseThrow(Unauthorized::new);
        ProjectAccess project = access.requireProject(member, projectId);
        project.requirePermission(Permissions.SETTINGS_MANAGE);
        if (!project.plan().apiAccess()) {
            throw new Forbidden("Webhooks need the Plus plan or above", "plan_without_api_access");
        }
        api.requireConfigured();
        return new Allowed(member, project);
    }

    private final class Allowed {
        private final Member member;
        private final ProjectAccess project;

        Allowed(Member member, ProjectAccess project) {
            this.member = member;
            this.project = project;
        }

        ProjectAccess project() {
            return project;
        }

        String key(HttpSession session) {
            return sessionKeys.keyFor(session, member, project);
        }
    }
}
