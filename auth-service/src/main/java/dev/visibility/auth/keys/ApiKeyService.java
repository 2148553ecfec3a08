package dev.visibility.auth.keys;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.visibility.auth.accounts.Member;
import dev.visibility.auth.accounts.MemberAccess;
import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.ProjectAccess;
import dev.visibility.auth.config.JdbcOutbox;
import dev.visibility.platform.error.Forbidden;
import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.events.ApiKeyChanged;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.query.QueryParams;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creation, listing and revocation of API keys. Every creation and revocation appends an
 * {@link ApiKeyChanged} to {@code auth.keys} (keyed by the key hash) in the same transaction,
 * so gateways learn of a revocation exactly when it is committed (DESIGN.md, request path 6).
 */
@Service
public class ApiKeyService {

    static final String EVENT_TYPE = "ApiKeyChanged";

    private final ApiKeyRepository keys;
    private final MemberAccess access;
    private final JdbcOutbox outbox;
    private final TransactionTemplate tx;
    private final ApiKeyProperties properties;

    public ApiKeyService(ApiKeyRepository keys, MemberAccess access, JdbcOutbox outbox, TransactionTemplate tx,
            ApiKeyProperties properties) {
        this.keys = keys;
        this.access = access;
        this.outbox = outbox;
        this.tx = tx;
        this.properties = properties;
    }

    /** A created key with its secret, to be handed over once. */
    public record CreatedApiKey(UUID id, UUID projectId, String name, NewApiKey key, List<String> narrowedScopes,
            Instant createdAt) {

        public ApiKeyCreated toResponse() {
            return new ApiKeyCreated(id.toString(), name, key.visiblePrefix(), ApiKeyScopes.effective(narrowedScopes),
                    narrowedScopes == null, createdAt, key.key());
        }
    }

    /**
     * Inserts a new key with its CREATED event; joins the caller's JDBC transaction (run it inside
     * {@link TransactionTemplate#execute}). {@code narrowedScopes} null keeps the defaults.
     */
    public CreatedApiKey create(UUID projectId, String name, List<String> narrowedScopes, UUID createdBy) {
        NewApiKey key = NewApiKey.generate(properties.prefix());
        UUID id = UUID.randomUUID();
        Instant createdAt = keys.insert(id, projectId, name, key, narrowedScopes, createdBy);
        publish(ApiKeyChanged.Change.CREATED, key.hash(), id, projectId, narrowedScopes, createdAt);
        return new CreatedApiKey(id, projectId, name, key, narrowedScopes, createdAt);
    }

    /**
     * A key for the dashboard's own calls through the gateway on behalf of a signed-in member
     * (auth-service README, "Webhooks page"): narrowed to {@code scopes}, named so that it is
     * recognisable in the key list, and revoked by {@link #revokeSessionKey} at sign-out or by
     * {@link #revokeExpiredSessionKeys} once {@code expiresAt} has passed. The caller has checked
     * the member's permission on the project.
     */
    public CreatedApiKey createSessionKey(UUID projectId, String name, List<String> scopes, UUID memberId,
            Instant expiresAt) {
        NewApiKey key = NewApiKey.generate(properties.prefix());
        UUID id = UUID.randomUUID();
        return tx.execute(status -> {
            Instant createdAt = keys.insert(id, projectId, name, key, scopes, memberId, expiresAt);
            publish(ApiKeyChanged.Change.CREATED, key.hash(), id, projectId, scopes, createdAt);
            return new CreatedApiKey(id, projectId, name, key, scopes, createdAt);
        });
    }

    /** Revokes a dashboard session's key (its session ended); nothing when it is revoked already. */
    public void revokeSessionKey(UUID keyId, UUID projectId) {
        tx.executeWithoutResult(status -> keys.revoke(keyId, projectId).ifPresent(revoked -> publish(
                ApiKeyChanged.Change.REVOKED, revoked.keyHash(), keyId, projectId, revoked.scopes(), revoked.revokedAt())));
    }

    /** Revokes the dashboard session keys whose session has ended without a sign-out (a crash, a restart); answers how many. */
    public int revokeExpiredSessionKeys() {
        List<UUID[]> expired = keys.expiredSessionKeys(500);
        expired.forEach(key -> revokeSessionKey(key[0], key[1]));
        return expired.size();
    }

    /**
     * Spec 5.2, 5.3: members with {@code settings.manage}, on a plan with API access; the body is
     * read only once the member may create keys there (403 and 404 before a 400 about the body).
     */
    public ApiKeyCreated createForMember(Member member, String projectId, java.util.function.Supplier<CreateApiKeyRequest> body) {
        ProjectAccess project = access.requireProject(member, projectId);
        project.requirePermission(Permissions.SETTINGS_MANAGE);
        if (!project.plan().apiAccess()) {
            throw new Forbidden("API keys need the API Access entitlement of the Plus plan or above",
                    "plan_without_api_access");
        }
        CreateApiKeyRequest request = body.get();
        String name = request.name();
        List<String> scopes = request.validScopes();
        return tx.execute(status -> create(project.id(), name, scopes, member.id())).toResponse();
    }

    public ApiKeyList list(Member member, String projectId) {
        ProjectAccess project = access.requireProject(member, projectId);
        project.requireMembership();
        return new ApiKeyList(keys.listByProject(project.id()).stream().map(ApiKeySummary::of).toList());
    }

    /** Spec 5.3: immediate and permanent; a repeated revocation answers the first one's time. */
    public ApiKeyRevoked revoke(Member member, String projectId, String keyId) {
        UUID project = QueryParams.pathUuid("projectId", projectId);
        UUID key = QueryParams.pathUuid("keyId", keyId);
        access.requireProject(member, project.toString()).requirePermission(Permissions.SETTINGS_MANAGE);
        Optional<Instant> revokedNow = tx.execute(status -> keys.revoke(key, project).map(revoked -> {
            publish(ApiKeyChanged.Change.REVOKED, revoked.keyHash(), key, project, revoked.scopes(), revoked.revokedAt());
            return revoked.revokedAt();
        }));
        Instant revokedAt = revokedNow.or(() -> keys.revokedAt(key, project))
                .orElseThrow(() -> new NotFound("No API key with this id exists in the project"));
        return new ApiKeyRevoked(key.toString(), revokedAt);
    }

    private void publish(ApiKeyChanged.Change change, String keyHash, UUID keyId, UUID projectId,
            List<String> narrowedScopes, Instant occurredAt) {
        ApiKeyChanged event = new ApiKeyChanged(UUID.randomUUID(), change, keyHash, keyId.toString(), projectId.toString(),
                new LinkedHashSet<>(ApiKeyScopes.effective(narrowedScopes)), occurredAt);
        outbox.append(Topics.AUTH_KEYS, keyHash, event.eventId(), EVENT_TYPE, event);
    }
}
