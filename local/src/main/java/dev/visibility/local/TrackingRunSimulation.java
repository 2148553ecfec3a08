package dev.visibility.local;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * {@code ./suite simulate tracking-run}: one finished tracking run of today, published onto
 * {@code tracking.runs} as the tracking runners publish it (schema
 * {@code docs/events/tracking.runs.schema.json}, key projectId, headers eventId and eventType). Its
 * capture day is today and it completes now, so it is the project's latest run: visibility-service
 * emits {@code search-tracking.completed} and {@code visibility.changed} for it (the previous
 * metrics are those of the run before, the demo's yesterday or the previous simulation).
 */
final class TrackingRunSimulation {

    static final String TOPIC = "tracking.runs";
    static final String RECORD_TYPE = "TrackingRunCompleted";
    static final List<String> PLATFORMS = List.of("chatgpt", "perplexity", "gemini");
    // the first prompts of the demo's tracked set, with the same promptIds (visibility-service's DemoData)
    static final List<String> PROMPTS = List.of("best payment API for a SaaS startup", "how to add subscriptions to a Next.js app",
            "stripe alternatives with lower fees");

    private final SuiteLocation suite;

    TrackingRunSimulation(SuiteLocation suite) {
        this.suite = suite;
    }

    void run(SuiteCli.Options options, PrintStream out) {
        UUID projectId = projectOption(options.get("--project"), suite);
        String accountId = options.get("--account") != null ? options.get("--account") : suite.credential("accountId");
        suite.requireKafka();
        Map<String, Object> run = trackingRun(projectId, accountId, Instant.now(), new Random());
        String runId = (String) run.get("runId");
        String eventId = (String) run.get("eventId");
        RecordMetadata sent = InternalProducer.publish(suite.kafkaBootstrap(), TOPIC, projectId.toString(), eventId,
                RECORD_TYPE, SuiteLocation.JSON.writeValueAsString(run));
        int samples = ((List<?>) run.get("samples")).size();
        out.printf("tracking run %s published onto %s (project %s, %d samples, partition %d, offset %d)%n", runId, TOPIC,
                projectId, samples, sent.partition(), sent.offset());
        out.println("search-tracking.completed and visibility.changed will be delivered to subscribed webhooks");
        out.println("  (./suite webhooks listen prints them; the run counts in GET " + suite.gatewayUrl() + "/api/v2/projects/"
                + projectId + "/visibility/summary)");
    }

    /** A completed run captured today, completed at {@code now}: 3 prompts × 3 platforms with answers, citations, mentions and ads. */
    static Map<String, Object> trackingRun(UUID projectId, String accountId, Instant now, Random random) {
        Instant completedAt = now.truncatedTo(ChronoUnit.MILLIS);
        // the demo project's brand and domain (visibility-service DemoData)
        String brand = "Acme Pay";
        String domain = "acmepay.example";
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int p = 0; p < PROMPTS.size(); p++) {
            for (int f = 0; f < PLATFORMS.size(); f++) {
                String platform = PLATFORMS.get(f);
                boolean visible = random.nextDouble() < 0.7;
                Map<String, Object> sample = new LinkedHashMap<>();
                sample.put("executionId", UUID.randomUUID().toString());
                sample.put("promptId", promptId(projectId, p).toString());
                sample.put("prompt", PROMPTS.get(p));
                sample.put("platform", platform);
                sample.put("answerText", "For \"" + PROMPTS.get(p) + "\", " + platform + " suggests "
                        + (visible ? brand + " (" + domain + ") and Rival" : "Rival and a few others")
                        + ". Captured by ./suite simulate tracking-run.");
                sample.put("completedAt", completedAt.minusSeconds(30L * (p * PLATFORMS.size() + f + 1)).toString());
                sample.put("retainUntil", null);
                List<Map<String, Object>> citations = new ArrayList<>();
                List<Map<String, Object>> mentions = new ArrayList<>();
                if (visible) {
                    citations.add(Map.of("url", "https://" + domain + "/docs/" + (p + 1), "domain", domain, "own", true));
                    mentions.add(Map.of("brand", brand, "own", true, "count", 1 + random.nextInt(3)));
                }
                citations.add(Map.of("url", "https://rival.example/blog/" + (p + 1), "domain", "rival.example", "own", false));
                mentions.add(Map.of("brand", "Rival", "own", false, "count", 1 + random.nextInt(2)));
                sample.put("citations", citations);
                sample.put("brandMentions", mentions);
                boolean measured = !platform.equals("gemini");
                sample.put("adCaptureMeasured", measured);
                sample.put("ads", measured && p == 0 ? List.of(Map.of("title", "Rival — payments in minutes",
                        "description", "Start accepting payments today", "domain", "rival.example", "name", "Rival Inc.",
                        "body", "No setup fees for the first year.", "url", "https://rival.example/pricing")) : List.of());
                samples.add(sample);
            }
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("eventId", UUID.randomUUID().toString());
        run.put("runId", UUID.randomUUID().toString());
        run.put("projectId", projectId.toString());
        run.put("accountId", accountId);
        run.put("finalStatus", "completed");
        run.put("capturedOn", LocalDate.ofInstant(completedAt, ZoneOffset.UTC).toString());
        run.put("startedAt", completedAt.minusSeconds(300).toString());
        run.put("completedAt", completedAt.toString());
        run.put("samples", samples);
        return run;
    }

    /** The promptId the demo gives the p-th prompt of a project (visibility-service DemoData#id("prompt:" + p)). */
    static UUID promptId(UUID projectId, int p) {
        return UUID.nameUUIDFromBytes((projectId + ":prompt:" + p).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code --project}, checked before anything else is read, else the demo project of the suite. */
    static UUID projectOption(String given, SuiteLocation suite) {
        if (given != null) {
            return uuid(given, 2, "--project must be a project id (a UUID), not " + given);
        }
        String demo = suite.credential("projectId");
        return uuid(demo, 1, "the demo projectId of " + suite.stateDir().resolve("credentials.json") + " is not a UUID: " + demo);
    }

    private static UUID uuid(String value, int exitCode, String message) {
        try {
            UUID id = UUID.fromString(value);
            if (id.toString().equalsIgnoreCase(value)) {
                return id;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new CliException(exitCode, message);
    }
}
