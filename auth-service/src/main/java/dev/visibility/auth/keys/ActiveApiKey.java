package dev.visibility.auth.keys;

import java.util.List;
import java.util.UUID;

import dev.visibility.auth.accounts.Plan;

/**
 * An unrevoked key with what the gateway needs about its project and account.
 *
 * @param createdBy the member who created the key (null for keys without a recorded creator)
 */
public record ActiveApiKey(UUID keyId, UUID projectId, UUID accountId, String name, List<String> scopes,
        List<String> features, Plan plan, boolean paused, UUID createdBy) {
}
