package dev.visibility.auth.keys;

import java.util.List;

import dev.visibility.platform.error.InvalidParameter;

/**
 * Body of {@code POST /api/v2/account/projects/{projectId}/api-keys}. {@code scopes} absent or
 * null means "all default scopes"; an array (even empty) narrows the key to exactly that set.
 */
public record CreateApiKeyRequest(String name, List<String> scopes) {

    static final int MAX_NAME_LENGTH = 100;

    /** The name without surrounding blanks; 400 naming {@code name} when missing, blank, too long or not printable. */
    String validName() {
        if (name == null) {
            throw new InvalidParameter("name", "Field 'name' is required");
        }
        String stripped = name.strip();
        if (stripped.isEmpty()) {
            throw new InvalidParameter("name", "Field 'name' must not be blank");
        }
        if (stripped.codePointCount(0, stripped.length()) > MAX_NAME_LENGTH) {
            throw new InvalidParameter("name", "Field 'name' must have at most " + MAX_NAME_LENGTH + " characters");
        }
        if (stripped.codePoints().anyMatch(Character::isISOControl)) {
            throw new InvalidParameter("name", "Field 'name' must not contain control characters");
        }
        return stripped;
    }

    /** The narrowed set in catalogue order, or null for "all default scopes". */
    List<String> validScopes() {
        return scopes == null ? null : ApiKeyScopes.narrow(scopes);
    }
}
