package dev.visibility.auth.keys;

import java.util.List;

/** {@code data} of {@code GET /api/v2/account/projects/{projectId}/api-keys}, newest first. */
public record ApiKeyList(List<ApiKeySummary> apiKeys) {
}
