package dev.visibility.webhook.delivery;

/**
 * The database could not be read or written (or, for the fan-out, the broker did not acknowledge
 * the delivery records). Retried in place (blocking, with back-off, without limit) so that no
 * record moves on before its outcome is stored.
 */
public class DeliveryStoreUnavailable extends RuntimeException {

    public DeliveryStoreUnavailable(Throwable cause) {
        super("The delivery store is unavailable: " + cause.getClass().getSimpleName(), cause);
    }
}
