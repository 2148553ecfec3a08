package dev.visibility.auth.keys;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/v2/account/projects/{projectId}/api-keys}, read and validated by the
 * platform's {@code RequestBodies} (400 naming the field; a name is one line of at most 100
 * characters). The name is kept without surrounding blanks. {@code scopes} absent or
 * null means "all default scopes"; an array (even empty) narrows the key to exactly that set.
 */
public record CreateApiKeyRequest(
        @NotBlank @Size(max = CreateApiKeyRequest.MAX_NAME_LENGTH)
        @Pattern(regexp = "\\P{Cntrl}*", message = "must not contain control characters (a name is one line)") String name,
        List<@NotNull String> scopes) {

    static final int MAX_NAME_LENGTH = 100;

    public CreateApiKeyRequest {
        name = name == null ? null : name.strip();
    }

    /** The narrowed set in catalogue order, or null for "all default scopes". */
    List<String> validScopes() {
        return scopes == null ? null : ApiKeyScopes.narrow(scopes);
    }
}
