package dev.visibility.auth.internal;

import dev.visibility.auth.keys.ActiveApiKey;
import dev.visibility.auth.keys.ApiKeyRepository;
import dev.visibility.auth.members.MemberTokens;
import dev.visibility.auth.oauth.ConnectionLookup;
import dev.visibility.auth.secrets.Secrets;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.NotFound;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The gateway's lookups on a cache miss, by SHA-256 of the credential (the credential itself
 * never travels here). The platform lets only tokens with scope {@code internal} reach
 * {@code /internal/**}. Unknown, revoked and expired credentials are one 404.
 */
@RestController
class InternalLookupController {

    private final ApiKeyRepository keys;
    private final MemberTokens memberTokens;
    private final ConnectionLookup connectionLookup;

    InternalLookupController(ApiKeyRepository keys, MemberTokens memberTokens, ConnectionLookup connectionLookup) {
        this.connectionLookup = connectionLookup;
        this.keys = keys;
        this.memberTokens = memberTokens;
    }

    @GetMapping("/internal/v1/api-keys/{keyHash}")
    ApiKeyLookup apiKey(@PathVariable String keyHash) {
        ActiveApiKey key = keys.findActiveByHash(requireHash("keyHash", keyHash))
                .orElseThrow(() -> new NotFound("No active API key has this hash"));
        return ApiKeyLookup.of(key);
    }

    @GetMapping("/internal/v1/member-tokens/{tokenHash}")
    MemberTokenLookup memberToken(@PathVariable String tokenHash) {
        MemberTokens.TokenOwner owner = memberTokens.findActive(requireHash("tokenHash", tokenHash))
                .orElseThrow(() -> new NotFound("No valid member token has this hash"));
        return new MemberTokenLookup(owner.memberId().toString(), owner.accountId().toString());
    }

    /**
     * Issue 20: the edge's check of an OAuth access token's connection ({@code connection_id} claim):
     * 404 once revoked (from the commit on) or when the member may no longer do anything on the project;
     * otherwise the capabilities the connection has now (approved, narrowed to current permissions).
     */
    @GetMapping("/internal/v1/oauth-connections/{connectionId}")
    ConnectionLookup.ActiveConnection oauthConnection(@PathVariable String connectionId) {
        if (connectionId.length() > 100) {
            throw new InvalidParameter("connectionId", "Parameter 'connectionId' must be at most 100 characters");
        }
        return connectionLookup.find(connectionId)
                .orElseThrow(() -> new NotFound("No active OAuth connection has this id"));
    }

    private static String requireHash(String name, String value) {
        if (!Secrets.isSha256Hex(value)) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must be 64 lowercase hex characters (a SHA-256)");
        }
        return value;
    }
}
