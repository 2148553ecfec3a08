package dev.visibility.auth.accounts;

import java.util.UUID;

import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.Caller;
import org.springframework.stereotype.Service;

/**
 * Who may use the account API: a signed-in member, whose internal token carries {@code usr}
 * (member id) and {@code acct} (account id) and no project. API-key tokens never reach it.
 */
@Service
public class MemberAccess {

    private static final String MEMBERS_ONLY = "The account API is for signed-in members of the account";

    private final AccountRepository accounts;

    public MemberAccess(AccountRepository accounts) {
        this.accounts = accounts;
    }

    public Member requireMember(Caller caller) {
        if (caller.projectId() != null || caller.keyId() != null || caller.clientId() != null) {
            throw new Forbidden(MEMBERS_ONLY);
        }
        UUID memberId = uuidOrNull(caller.userId());
        UUID accountId = uuidOrNull(caller.accountId());
        if (memberId == null || accountId == null) {
            throw new Forbidden(MEMBERS_ONLY);
        }
        return accounts.findMember(memberId, accountId).orElseThrow(() -> new Forbidden(MEMBERS_ONLY));
    }

    /** The project of the path when it is in the member's account; 400 for a malformed id, 404 otherwise. */
    public ProjectAccess requireProject(Member member, String projectId) {
        UUID id = QueryParams.pathUuid("projectId", projectId);
        return accounts.findProject(member, id)
                .orElseThrow(() -> new NotFound("No project with this id exists in your account"));
    }

    private static UUID uuidOrNull(String value) {
        if (value == null || value.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
