package dev.visibility.auth.accounts;

import java.util.UUID;

/** A signed-in team member, as the account API sees them. */
public record Member(UUID id, UUID accountId, MemberRole role) {

    public boolean owner() {
        return role == MemberRole.OWNER;
    }
}
