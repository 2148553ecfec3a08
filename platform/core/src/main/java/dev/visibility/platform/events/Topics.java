package dev.visibility.platform.events;

import java.util.List;

import org.springframework.core.env.PropertyResolver;

/** Kafka topic names of DESIGN.md (Kafka table). Keys are given beside each. */
public final class Topics {

    /** key projectId: finished tracking runs with their samples, internal producers → visibility-service. */
    public static final String TRACKING_RUNS = "tracking.runs";
    /** key runId: agent-picks run status changes and evidence records → visibility-service. */
    public static final String AGENTPICKS_RUNS = "agentpicks.runs";
    /** key projectId: one record per observed bot or referral hit → traffic-service. */
    public static final String TRAFFIC_HITS = "traffic.hits";
    /** key projectId: a project's traffic configuration (domains, sensor sources), whole, latest configuredAt wins → traffic-service. */
    public static final String TRAFFIC_CONFIG = "traffic.config";
    /** key projectId: one adoption metric sample per domain (weekly downloads, stars) → traffic-service. */
    public static final String ADOPTION_METRICS = "adoption.metrics";
    /** key projectId: candidate recommendations with evidence → actions-service. */
    public static final String RECOMMENDATIONS = "recommendations";
    /** key projectId: measured windows per intervention → outcomes-service. */
    public static final String OUTCOMES_MEASUREMENTS = "outcomes.measurements";
    /** key projectId: every customer-visible event in the envelope of spec 6.1 → webhook-service. */
    public static final String PUBLIC_EVENTS = "public.events";
    /** key = key hash, compacted: API key created, changed, revoked → gateway, mcp. */
    public static final String AUTH_KEYS = "auth.keys";
    /** key projectId: request counts per API key from the gateways → auth-service (project usage). */
    public static final String USAGE_REQUESTS = "usage.requests";
    /** key projectId: managed-agent run status, usage, credits, draft output and review state, agent runner → agents-service. */
    public static final String AGENTS_RUNS = "agents.runs";
    /** key projectId: assistant threads created, handoffs offered, accepted or expired, credits used, assistant → agents-service. */
    public static final String AGENTS_THREADS = "agents.threads";
    /** key projectId: a deleted thread's live work must stop, agents-service (outbox) → agent runner. */
    public static final String AGENTS_THREAD_STOPS = "agents.thread-stops";
    /** key subscription id: one record per (event, subscription); retry topics and DLT derive from it. */
    public static final String WEBHOOK_DELIVERIES = "webhook.deliveries";

    /** Topics created at start-up by every service (KafkaAdmin creates only the missing ones). */
    public static final List<String> ALL = List.of(TRACKING_RUNS, AGENTPICKS_RUNS, TRAFFIC_HITS, RECOMMENDATIONS,
            OUTCOMES_MEASUREMENTS, PUBLIC_EVENTS, AUTH_KEYS, USAGE_REQUESTS, WEBHOOK_DELIVERIES, AGENTS_RUNS, AGENTS_THREADS,
            AGENTS_THREAD_STOPS, TRAFFIC_CONFIG, ADOPTION_METRICS);

    /** Partitions of a topic unless configured ({@code suite.kafka.partitions}). */
    public static final int DEFAULT_PARTITIONS = 3;

    /**
     * How many partitions a service declares for {@code topic}, and for the dead-letter and retry topics derived from
     * it: {@code suite.kafka.topic-partitions.<topic>}, else {@code suite.kafka.partitions}, else
     * {@value #DEFAULT_PARTITIONS}. A topic that exists keeps the count it has ({@link ExistingTopicsGuard}).
     */
    public static int partitions(PropertyResolver properties, String topic) {
        int partitions = properties.getProperty("suite.kafka.partitions", Integer.class, DEFAULT_PARTITIONS);
        return properties.getProperty("suite.kafka.topic-partitions." + topic, Integer.class, partitions);
    }

    /** Kafka header that carries the eventId of every record. */
    public static final String EVENT_ID_HEADER = "eventId";
    /** Kafka header that carries the type (record or event name) of every record. */
    public static final String EVENT_TYPE_HEADER = "eventType";

    private Topics() {
    }
}
