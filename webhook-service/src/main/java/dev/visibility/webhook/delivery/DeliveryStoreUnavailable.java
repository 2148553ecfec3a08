package dev.visibility.webhook.delivery;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * The database could not be read or written. A transient failure to the platform's consumer
 * ({@code Failures}: a {@link TransientDataAccessResourceException}): retried with back-off,
 * without limit, so that no record moves on before its outcome is stored.
 */
public class DeliveryStoreUnavailable extends TransientDataAccessResourceException {

    public DeliveryStoreUnavailable(Throwable cause) {
        super("The delivery store is unavailable: " + cause.getClass().getSimpleName(), cause);
    }
}
