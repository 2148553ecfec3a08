package dev.visibility.auth.accounts;

import java.util.List;

/** An item of {@code GET /api/v2/account/projects}. */
public record AccountProject(String id, String name, String plan, boolean paused, List<String> features,
        List<String> permissions) {

    static AccountProject of(ProjectAccess project) {
        return new AccountProject(project.id().toString(), project.name(), project.plan().value(), project.paused(),
                project.features(), project.permissions());
    }
}
