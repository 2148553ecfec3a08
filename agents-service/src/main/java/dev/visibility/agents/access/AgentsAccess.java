package dev.visibility.agents.access;

import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.security.Caller;

/**
 * Who may use the agents endpoints (spec 5.8, DESIGN.md "Scopes per route" and "Outcomes, traffic,
 * agents"). The gateway checks the scope first; the service repeats it, so that a refusal has the
 * same reason whichever answers. The reasons of E9 and E10 are the six of DESIGN.md.
 */
public final class AgentsAccess {

    /** The project entitlement of plans with managed agents (a project feature, as {@code agent-picks} is). */
    public static final String FEATURE = "managed-agents";
    public static final String READ = "agents.read";
    public static final String RUN = "agents.run";

    public static final String MISSING_SCOPE = "missing_scope";
    public static final String AGENTS_NOT_ENABLED = "agents_not_enabled";
    public static final String NOT_THREAD_OWNER = "not_thread_owner";
    public static final String INVALID_THREAD_ID = "invalid_thread_id";
    public static final String THREAD_NOT_FOUND = "thread_not_found";
    public static final String THREAD_DELETED = "thread_deleted";

    private AgentsAccess() {
    }

    /** The scope, then the project's managed-agents entitlement: 403 with its reason. */
    public static void require(Caller caller, String scope) {
        if (!caller.hasScope(scope)) {
            throw new Forbidden("The API key lacks the scope '" + scope + "' that this endpoint needs", MISSING_SCOPE);
        }
        if (!caller.hasFeature(FEATURE)) {
            throw new Forbidden("The project's plan does not include managed agents", AGENTS_NOT_ENABLED);
        }
    }

    /**
     * The member the caller acts for: the creator of the API key (issue 19: it travels in the
     * internal token), or the signed-in member of other credentials; null when there is none.
     */
    public static String member(Caller caller) {
        return caller.keyId() != null ? caller.keyCreatorId() : caller.userId();
    }

    public static ApiException invalidThreadId() {
        return new ApiException(ErrorCode.INVALID_REQUEST, 400, "Parameter 'threadId' must be a thread id (a UUID)",
                INVALID_THREAD_ID, Map.of());
    }

    public static ApiException threadNotFound() {
        return new ApiException(ErrorCode.NOT_FOUND, 404, "No such thread in this project", THREAD_NOT_FOUND, Map.of());
    }

    public static ApiException threadDeleted() {
        return new ApiException(ErrorCode.NOT_FOUND, 404, "This thread was deleted", THREAD_DELETED, Map.of());
    }

    public static ApiException notThreadOwner() {
        return new Forbidden("Only the member who owns the thread can use it; the API key was created by another member",
                NOT_THREAD_OWNER);
    }
}
