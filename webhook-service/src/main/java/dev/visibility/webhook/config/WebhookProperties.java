package dev.visibility.webhook.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of webhook-service ({@code suite.webhook.*}); the README lists every property.
 *
 * @param secretKey           base64 of the 16, 24 or 32-byte AES key that encrypts stored signing secrets
 *                            (environment variable {@code SUITE_WEBHOOK_SECRET_KEY}); required
 * @param allowLoopback       accept destinations on loopback addresses (local mode and tests only)
 * @param allowLocalHttp      accept {@code http://localhost} and {@code http://127.0.0.1} URLs (local mode only)
 * @param maxActivePerProject how many active subscriptions one project may have
 * @param delivery            time-outs, back-off and listener sizing of deliveries
 * @param tls                 extra certificates the delivery client trusts
 * @param retention           how long finished deliveries (succeeded, failed, cancelled), their attempts and
 *                            the event bodies no delivery needs any more are kept; pending ones are never purged
 * @param purgeInterval       how often the purge of what is older than {@code retention} runs
 */
@ConfigurationProperties("suite.webhook")
public record WebhookProperties(String secretKey, boolean allowLoopback, boolean allowLocalHttp,
        Integer maxActivePerProject, Delivery delivery, Tls tls, Duration retention, Duration purgeInterval) {

    public WebhookProperties {
        maxActivePerProject = maxActivePerProject == null ? 20 : maxActivePerProject;
        delivery = delivery == null ? new Delivery(null, null, null, null, null, null, null, null, null, null, null, null) : delivery;
        tls = tls == null ? new Tls(null, null) : tls;
        retention = retention == null ? Duration.ofDays(30) : retention;
        purgeInterval = purgeInterval == null ? Duration.ofHours(1) : purgeInterval;
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("suite.webhook.retention must be positive");
        }
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("suite.webhook.purge-interval must be positive");
        }
    }

    /**
     * @param timeout        one attempt, from DNS lookup to the answer's status line; longer is a failure
     * @param backoffBase    delay before the first retry; each further retry doubles it (spec 6.4.3: up to 3 retries)
     * @param backoffMax     the longest delay before a retry, also the bound of an honoured {@code Retry-After}
     * @param jitter         each delay is drawn uniformly within this fraction around its nominal value
     * @param resolveTimeout DNS lookup of a host when a subscription is created
     * @param concurrency    consumers of {@code public.events} per instance
     * @param maxPollRecords retry records per poll; with {@code timeout} it bounds the time between polls
     * @param maxConnections pooled connections per receiver (host and port) per instance
     * @param batchSize      first-attempt records per poll of {@code webhook.deliveries}, per consumer
     * @param parallelism    POSTs of one batch in flight at once (per consumer of {@code webhook.deliveries})
     * @param deliveryConcurrency consumers per instance of {@code webhook.deliveries} and of each of its retry and
     *                       dead-letter topics; null: as many as {@code webhook.deliveries} has partitions
     * @param gather         how long the broker may hold a fetch of {@code public.events} (fan-out) or
     *                       {@code webhook.deliveries} (first attempts) to gather {@link #GATHER_BYTES}: batches
     *                       that grow with the load instead of a few records each; zero: no gathering (a fetch is
     *                       answered as soon as anything arrived, the idle consumer's fetch after
     *                       {@code fetch.max.wait.ms}: the local suite's choice)
     */
    public record Delivery(Duration timeout, Duration backoffBase, Duration backoffMax, Double jitter,
            Duration resolveTimeout, Integer concurrency, Integer maxPollRecords, Integer maxConnections,
            Integer batchSize, Integer parallelism, Integer deliveryConcurrency, Duration gather) {

        /** What a gathering fetch waits for, unless {@code gather} passes first: about a hundred events, or a few hundred delivery records. */
        public static final int GATHER_BYTES = 64 * 1024;

        public Delivery {
            timeout = timeout == null ? Duration.ofSeconds(10) : timeout;
            backoffBase = backoffBase == null ? Duration.ofSeconds(10) : backoffBase;
            backoffMax = backoffMax == null ? Duration.ofMinutes(2) : backoffMax;
            jitter = jitter == null ? 0.2 : jitter;
            resolveTimeout = resolveTimeout == null ? Duration.ofSeconds(5) : resolveTimeout;
            concurrency = concurrency == null ? 3 : concurrency;
            maxPollRecords = maxPollRecords == null ? 20 : maxPollRecords;
            maxConnections = maxConnections == null ? 64 : maxConnections;
            batchSize = batchSize == null ? 250 : batchSize;
            parallelism = parallelism == null ? 64 : parallelism;
            gather = gather == null ? Duration.ofMillis(50) : gather;
            if (gather.isNegative()) {
                throw new IllegalArgumentException("suite.webhook.delivery.gather must not be negative");
            }
            if (deliveryConcurrency != null && deliveryConcurrency < 1) {
                throw new IllegalArgumentException("suite.webhook.delivery.delivery-concurrency must be at least 1");
            }
            if (jitter < 0 || jitter >= 1) {
                throw new IllegalArgumentException("suite.webhook.delivery.jitter must be at least 0 and below 1");
            }
            if (backoffMax.compareTo(backoffBase) < 0) {
                throw new IllegalArgumentException("suite.webhook.delivery.backoff-max must not be below backoff-base");
            }
        }
    }

    /**
     * @param trustStore         a PKCS12 file whose certificates are trusted besides the JDK's roots (a private CA; the tests' receiver)
     * @param trustStorePassword its password
     */
    public record Tls(String trustStore, String trustStorePassword) {
    }
}
