package dev.visibility.actions.action;

import dev.visibility.platform.security.Caller;

/**
 * Who made a change: a user (through the API; the key or OAuth client is kept for the history) or
 * the system (recommendation jobs). {@code origin} is the spec 6.2 origin of the change.
 */
public record Actor(String type, String userId, String keyId, String clientId) {

    public static final String USER = "user";
    public static final String SYSTEM = "system";

    public static Actor system() {
        return new Actor(SYSTEM, null, null, null);
    }

    public static Actor of(Caller caller) {
        return new Actor(USER, caller.userId(), caller.keyId(), caller.clientId());
    }

    public String origin() {
        return type;
    }
}
