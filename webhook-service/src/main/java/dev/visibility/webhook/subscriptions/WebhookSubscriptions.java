package dev.visibility.webhook.subscriptions;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.NotFound;
import dev.visibility.webhook.config.WebhookProperties;
import dev.visibility.webhook.secrets.SecretCipher;
import dev.visibility.webhook.secrets.SigningSecrets;
import dev.visibility.webhook.subscriptions.SubscriptionRepository.Subscription;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/** E13-E16: create, list, deactivate and rotate; secrets are generated here, stored encrypted, returned once. */
@Service
public class WebhookSubscriptions {

    static final String NOT_FOUND = "No webhook with this id exists in the project";
    static final String NOT_FOUND_ACTIVE = "No active webhook with this id exists in the project";

    private final SubscriptionRepository subscriptions;
    private final SecretCipher cipher;
    private final TransactionalOperator tx;
    private final int maxActive;

    public WebhookSubscriptions(SubscriptionRepository subscriptions, SecretCipher cipher, TransactionalOperator tx,
            WebhookProperties properties) {
        this.subscriptions = subscriptions;
        this.cipher = cipher;
        this.tx = tx;
        this.maxActive = properties.maxActivePerProject();
    }

    public Mono<WebhookCreated> create(UUID projectId, String accountId, SubscriptionValidator.Checked request) {
        UUID id = UUID.randomUUID();
        String secret = SigningSecrets.newSecret();
        Subscription subscription = new Subscription(id, projectId, request.url(), request.events(), true,
                Instant.now().truncatedTo(ChronoUnit.MICROS));
        Mono<WebhookCreated> create = subscriptions.lockProject(projectId)
                .then(subscriptions.countActive(projectId))
                .flatMap(active -> active >= maxActive
                        ? Mono.error(new InvalidRequest("A project can have at most " + maxActive
                                + " active webhooks; delete one before creating another"))
                        : subscriptions.insert(subscription, accountId, cipher.encrypt(secret, id)))
                .then(Mono.fromSupplier(() -> new WebhookCreated(id, subscription.url(), subscription.events(), true,
                        secret, subscription.createdAt())));
        return tx.transactional(create);
    }

    public Mono<WebhookList> list(UUID projectId) {
        return subscriptions.listActive(projectId)
                .map(s -> new WebhookSummary(s.id(), s.url(), s.events(), s.active(), s.createdAt()))
                .collectList()
                .map(WebhookList::new);
    }

    public Mono<WebhookDeleted> delete(UUID projectId, UUID webhookId) {
        return tx.transactional(subscriptions.deactivate(projectId, webhookId))
                .flatMap(found -> found ? Mono.just(new WebhookDeleted(true)) : Mono.error(new NotFound(NOT_FOUND)));
    }

    public Mono<SecretRotated> rotate(UUID projectId, UUID webhookId) {
        String secret = SigningSecrets.newSecret();
        return subscriptions.replaceSecret(projectId, webhookId, cipher.encrypt(secret, webhookId))
                .flatMap(found -> found ? Mono.just(new SecretRotated(secret)) : Mono.error(new NotFound(NOT_FOUND_ACTIVE)));
    }
}
