package dev.visibility.auth.accounts;

import java.util.List;

/** {@code data} of {@code GET /api/v2/account/projects}. */
public record AccountProjects(List<AccountProject> projects) {
}
