package dev.visibility.local;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * {@code ./suite simulate recommendation}: one new recommendation ({@code kind: upsert} of a new
 * {@code recommendationId}) published onto {@code recommendations} as a recommendation job
 * publishes it (schema {@code docs/events/recommendations.schema.json}, key projectId, headers
 * eventId and eventType). actions-service turns it into a suggested action and emits
 * {@code action.created} and {@code action.recommendation.created}.
 */
final class RecommendationSimulation {

    static final String TOPIC = "recommendations";
    static final String RECORD_TYPE = "RecommendationCandidate";
    private static final List<String> TOPICS = List.of("usage-based billing", "tax-inclusive pricing", "dunning emails",
            "multi-currency checkout", "invoice PDFs", "free trials without a card");

    private final SuiteLocation suite;

    RecommendationSimulation(SuiteLocation suite) {
        this.suite = suite;
    }

    void run(SuiteCli.Options options, PrintStream out) {
        UUID projectId = TrackingRunSimulation.projectOption(options.get("--project"), suite);
        String accountId = options.get("--account") != null ? options.get("--account") : suite.credential("accountId");
        suite.requireKafka();
        Map<String, Object> record = recommendation(projectId, accountId, Instant.now(), new Random());
        RecordMetadata sent = InternalProducer.publish(suite.kafkaBootstrap(), TOPIC, projectId.toString(),
                (String) record.get("eventId"), RECORD_TYPE, SuiteLocation.JSON.writeValueAsString(record));
        out.printf("recommendation %s published onto %s (project %s, partition %d, offset %d): \"%s\"%n",
                record.get("recommendationId"), TOPIC, projectId, sent.partition(), sent.offset(), record.get("title"));
        out.println("action.created and action.recommendation.created will be delivered to subscribed webhooks");
        out.println("  (./suite webhooks listen prints them; the new suggested action is in GET " + suite.gatewayUrl()
                + "/api/v2/projects/" + projectId + "/actions/list?status=suggested)");
    }

    /** A new upsert with an opportunity on the prompt-gap family, ready to be ranked. */
    static Map<String, Object> recommendation(UUID projectId, String accountId, Instant now, Random random) {
        String topic = TOPICS.get(random.nextInt(TOPICS.size()));
        String slug = topic.replace(' ', '-');
        int prior = 8 + random.nextInt(20);
        int current = random.nextInt(prior / 2);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", projectId.toString());
        c.put("accountId", accountId);
        c.put("recommendationId", "simulated-" + UUID.randomUUID().toString().substring(0, 8));
        c.put("kind", "upsert");
        c.put("occurredAt", now.truncatedTo(ChronoUnit.MILLIS).toString());
        c.put("title", "Answer the prompts about " + topic);
        c.put("description", "AI answers about " + topic + " cite competitors more often than this project.");
        c.put("channels", List.of("content", "docs"));
        c.put("priority", "high");
        c.put("bucket", "do_now");
        c.put("opportunity", Map.of(
                "family", "prompt_gap",
                "estimated", false,
                "components", Map.of(
                        "reach", Map.of("value", 200 + random.nextInt(3000), "unit", "searches_per_month", "estimated", false),
                        "gap", Map.of("value", 0.6, "unit", "citation_share",
                                "normalization", "1 - project citations / all citations in the matched cohort"),
                        "confidence", Map.of("value", 0.8, "unit", "ratio", "volumeConfidencePenalty", 0.05,
                                "saturation", Map.of("signalDays", 14, "eventEvidence", 12, "runPlatformObservations", 90))),
                "measuredFacts", List.of("citation_share_dropped", "competitor_gained"),
                "percentileScope", "signal_family"));
        c.put("expectedImpact", "About " + (prior - current) + " more citations a month");
        c.put("primaryCtaKind", "generate_brief");
        c.put("target", Map.of("label", "Page on " + topic, "type", "page",
                "payload", Map.of("url", "https://acmepay.example/" + slug)));
        c.put("whatChanged", "Competitors published fresher pages on " + topic + ".");
        c.put("whyNow", "Citations on " + topic + " fell from " + prior + " to " + current + " over two weeks.");
        return c;
    }
}
