package dev.visibility.auth.accounts;

import java.util.List;
import java.util.UUID;

import dev.visibility.platform.error.Forbidden;

/**
 * A project of the member's account, with what the member may do on it.
 *
 * @param member      whether the member belongs to the project (an owner belongs to all)
 * @param permissions the member's effective permissions (all of them for an owner)
 */
public record ProjectAccess(UUID id, UUID accountId, String name, Plan plan, boolean paused, List<String> features,
        boolean member, List<String> permissions) {

    public void requirePermission(String permission) {
        if (!permissions.contains(permission)) {
            throw new Forbidden("This action needs the '" + permission + "' permission on the project");
        }
    }

    public void requireMembership() {
        if (!member) {
            throw new Forbidden("You are not a member of this project");
        }
    }
}
