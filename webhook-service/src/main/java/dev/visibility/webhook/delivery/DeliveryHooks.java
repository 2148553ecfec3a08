package dev.visibility.webhook.delivery;

import java.util.UUID;

import dev.visibility.webhook.delivery.DeliveryHttpClient.Outcome;

/**
 * Test hook: runs on the listener thread after a receiver answered and before the attempt is
 * stored, to simulate a crash exactly there (the crash test throws an {@link Error}, which stops
 * the consumer without committing its offsets). Does nothing in production.
 */
public class DeliveryHooks {

    /** Called with the delivery, its webhook and how the attempt went. */
    @FunctionalInterface
    public interface AfterAnswer {
        void run(UUID deliveryId, UUID webhookId, Outcome outcome);
    }

    private volatile AfterAnswer afterAnswer = (deliveryId, webhookId, outcome) -> { };

    public void afterAnswer(AfterAnswer hook) {
        this.afterAnswer = hook;
    }

    void runAfterAnswer(UUID deliveryId, UUID webhookId, Outcome outcome) {
        afterAnswer.run(deliveryId, webhookId, outcome);
    }
}
