package dev.visibility.auth.dashboard;

import java.security.Principal;
import java.util.UUID;

import dev.visibility.auth.signin.MemberCredentials;
import dev.visibility.platform.error.Unauthorized;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The signed-in member's start page. */
@Controller
class DashboardController {

    private final MemberCredentials members;

    DashboardController(MemberCredentials members) {
        this.members = members;
    }

    @GetMapping("/dashboard")
    String dashboard(Principal principal, Model model) {
        MemberCredentials.SignedInMember member = members.find(UUID.fromString(principal.getName()))
                .orElseThrow(Unauthorized::new);
        model.addAttribute("member", member);
        return "dashboard";
    }
}
