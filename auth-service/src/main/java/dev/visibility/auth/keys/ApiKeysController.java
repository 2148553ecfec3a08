package dev.visibility.auth.keys;

import dev.visibility.auth.accounts.MemberAccess;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.web.Envelope;
import dev.visibility.platform.web.RequestBodies;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** The account API's key routes (DESIGN.md, Account API; spec 5.2, 5.3), for signed-in members. */
@RestController
@RequestMapping("/api/v2/account/projects/{projectId}/api-keys")
class ApiKeysController {

    private final MemberAccess access;
    private final ApiKeyService keys;

    private final RequestBodies bodies;

    ApiKeysController(MemberAccess access, ApiKeyService keys, RequestBodies bodies) {
        this.access = access;
        this.keys = keys;
        this.bodies = bodies;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Envelope<ApiKeyCreated> create(@Parameter(hidden = true) Caller caller, @PathVariable String projectId, @RequestBody(required = false) JsonNode body) {
        ApiKeyCreated created = keys.createForMember(access.requireMember(caller), projectId,
                () -> bodies.read(body, CreateApiKeyRequest.class));
        return Envelope.of(created, canonical(projectId));
    }

    @GetMapping
    Envelope<ApiKeyList> list(@Parameter(hidden = true) Caller caller, @PathVariable String projectId) {
        return Envelope.of(keys.list(access.requireMember(caller), projectId), canonical(projectId));
    }

    @DeleteMapping("/{keyId}")
    Envelope<ApiKeyRevoked> revoke(@Parameter(hidden = true) Caller caller, @PathVariable String projectId, @PathVariable String keyId) {
        return Envelope.of(keys.revoke(access.requireMember(caller), projectId, keyId), canonical(projectId));
    }

    /** The path's project id in canonical form (already validated by the time it is used). */
    private static String canonical(String projectId) {
        return QueryParams.pathUuid("projectId", projectId).toString();
    }
}
