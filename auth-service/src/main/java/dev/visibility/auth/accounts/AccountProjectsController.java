package dev.visibility.auth.accounts;

import java.util.List;

import dev.visibility.platform.security.Caller;
import dev.visibility.platform.web.Envelope;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The projects a signed-in member belongs to (DESIGN.md, Account API). */
@RestController
class AccountProjectsController {

    private final MemberAccess access;
    private final AccountRepository accounts;

    AccountProjectsController(MemberAccess access, AccountRepository accounts) {
        this.access = access;
        this.accounts = accounts;
    }

    /** {@code meta.projectId} is null: the answer spans the account, not one project. */
    @GetMapping("/api/v2/account/projects")
    Envelope<AccountProjects> projects(@Parameter(hidden = true) Caller caller) {
        Member member = access.requireMember(caller);
        List<AccountProject> projects = accounts.projectsOf(member).stream().map(AccountProject::of).toList();
        return Envelope.of(new AccountProjects(projects), null);
    }
}
