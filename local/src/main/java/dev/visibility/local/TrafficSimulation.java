package dev.visibility.local;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code ./suite simulate traffic [--project ID] [--hits N]}: a burst of AI-crawler and AI-referral
 * hits of the last hour on the demo project's two hostnames, published onto {@code traffic.hits} as
 * a sensor publishes them (schema {@code docs/events/traffic.hits.schema.json}, key projectId). A
 * few of them are 404s. traffic-service applies them in batches; E4 counts them within seconds.
 */
final class TrafficSimulation {

    static final String TOPIC = "traffic.hits";
    static final String RECORD_TYPE = "TrafficHitObserved";
    static final int DEFAULT_HITS = 1_000;
    static final int MAX_HITS = 1_000_000;
    static final List<String> BOTS = List.of("GPTBot", "OAI-SearchBot", "ClaudeBot", "PerplexityBot", "Google-Extended");
    static final List<String> REFERRERS = List.of("https://chatgpt.com/", "https://www.perplexity.ai/", "https://claude.ai/");
    static final List<String> PATHS = List.of("/", "/pricing", "/blog/llms-txt", "/docs", "/docs/api", "/docs/api/webhooks",
            "/docs/guides/subscriptions", "/docs/sdks/node");

    private final SuiteLocation suite;

    TrafficSimulation(SuiteLocation suite) {
        this.suite = suite;
    }

    void run(SuiteCli.Options options, PrintStream out) {
        UUID projectId = TrackingRunSimulation.projectOption(options.get("--project"), suite);
        int count = hits(options.get("--hits"));
        suite.requireKafka();
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, suite.kafkaBootstrap());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "suite-simulate-traffic");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        Random random = new Random();
        Instant now = Instant.now();
        long started = System.nanoTime();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            List<Future<?>> sent = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Map<String, Object> hit = hit(projectId, now, random);
                ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, projectId.toString(),
                        SuiteLocation.JSON.writeValueAsString(hit));
                record.headers().add(InternalProducer.EVENT_ID_HEADER, ((String) hit.get("eventId")).getBytes(StandardCharsets.UTF_8));
                record.headers().add(InternalProducer.EVENT_TYPE_HEADER, RECORD_TYPE.getBytes(StandardCharsets.UTF_8));
                sent.add(producer.send(record));
            }
            for (Future<?> ack : sent) {
                ack.get(60, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(1, "interrupted before Kafka acknowledged the hits");
        } catch (Exception e) {
            throw new CliException(1, "Kafka at " + suite.kafkaBootstrap() + " did not take the hits (" + e.getClass().getSimpleName()
                    + "); is the suite up? ./suite status");
        }
        double seconds = Math.max(0.001, (System.nanoTime() - started) / 1e9);
        out.printf("%,d hits of the last hour published onto %s (project %s) in %.1f s (%,.0f hits/s)%n", count, TOPIC,
                projectId, seconds, count / seconds);
        out.println("E4 counts them within seconds: GET " + suite.gatewayUrl() + "/api/v2/projects/" + projectId
                + "/traffic/summary");
    }

    static int hits(String given) {
        if (given == null) {
            return DEFAULT_HITS;
        }
        try {
            int n = Integer.parseInt(given);
            if (n >= 1 && n <= MAX_HITS) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new CliException(2, "--hits must be a number from 1 to " + MAX_HITS + ", not " + given);
    }

    /** One hit of the last hour: 70 % crawlers, 30 % referred visitors, about 3 % 404s. */
    static Map<String, Object> hit(UUID projectId, Instant now, Random random) {
        boolean bot = random.nextDouble() < 0.7;
        String path = PATHS.get(random.nextInt(PATHS.size()));
        boolean missing = random.nextDouble() < 0.03;
        Map<String, Object> hit = new LinkedHashMap<>();
        hit.put("eventId", UUID.randomUUID().toString());
        hit.put("projectId", projectId.toString());
        hit.put("source", "cloudflare");
        hit.put("hostname", path.startsWith("/docs") ? "docs.acme.dev" : "acme.dev");
        hit.put("path", missing ? path + (path.endsWith("/") ? "" : "/") + "missing-page" : path);
        hit.put("status", missing ? 404 : 200);
        hit.put("botName", bot ? BOTS.get(random.nextInt(BOTS.size())) : null);
        hit.put("referrer", bot ? null : REFERRERS.get(random.nextInt(REFERRERS.size())));
        hit.put("sessionId", (bot ? "sim-bot-" : "sim-visitor-") + random.nextInt(bot ? 50 : 400));
        hit.put("observedAt", now.minus(Duration.ofMillis((long) (random.nextDouble() * 3_600_000)))
                .truncatedTo(ChronoUnit.MILLIS).toString());
        return hit;
    }
}
