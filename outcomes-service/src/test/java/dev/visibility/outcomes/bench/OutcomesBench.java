package dev.visibility.outcomes.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;

import dev.visibility.outcomes.OutcomesServiceApplication;
import dev.visibility.outcomes.support.Measurement;
import dev.visibility.platform.events.OutcomeMeasured;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.testing.BenchCpu;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * outcomes-service benchmark (issue 17), standalone: a real PostgreSQL and Kafka broker
 * (platform-testing's shared infrastructure) and the service in this JVM.
 * <ol>
 * <li>Ingestion: {@code interventions} closed 14-day measurements of one project (spread over the
 * last year, every result) published onto {@code outcomes.measurements} at once; prints the
 * records per second applied into the rollups (target at least 5,000/s).</li>
 * <li>E2 page 1 and page 500 ({@code days=365&pageSize=50}), E2 page 1 with
 * {@code impactWindows=true}, and E7 ({@code days=90}): p50 and p99 of {@code samples} sequential
 * requests each, directly against the service with a minted internal token, and the ratio page
 * 500 / page 1 (targets: ratio at most 1.2, E2 and E7 p99 at most 50 ms).</li>
 * </ol>
 * Run with {@code bench/OutcomesBench.sh [interventions=100000] [samples=300]}.
 */
public final class OutcomesBench {

    public static void main(String[] args) throws Exception {
        int interventions = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        Map<String, Object> properties = new HashMap<>(SharedInfrastructure.springProperties());
        properties.put("server.port", "0");
        properties.put("logging.level.root", "WARN");
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(OutcomesServiceApplication.class).run(arguments);
        String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
        DatabaseClient db = context.getBean(DatabaseClient.class);
        ObjectMapper mapper = context.getBean(ObjectMapper.class);
        UUID project = UUID.randomUUID();

        System.out.printf("publishing %,d measured windows of project %s ...%n", interventions, project);
        List<String> values = new ArrayList<>(interventions);
        Random random = new Random(42);
        OutcomeMeasured.Dimension[] kinds = {Measurement.up(), Measurement.up(), Measurement.down(), Measurement.flat(), null};
        String[] channels = {"content", "technical", "pr", "social", "docs"};
        for (int i = 0; i < interventions; i++) {
            Measurement m = Measurement.of(project).channel(channels[i % 5])
                    .intervenedAt(Instant.now().minus(Duration.ofMinutes(15 * 24 * 60 + random.nextInt(350 * 24 * 60))))
                    .citations(kinds[i % kinds.length]).answerFetches(i % 3 == 0 ? Measurement.flat() : null);
            if (i % 17 == 0) {
                m.conversions(random.nextInt(40), random.nextInt(40));
            }
            values.add(mapper.writeValueAsString(m.build()));
        }
        long started = System.nanoTime();
        double cpuStarted = BenchCpu.seconds();
        publish(project.toString(), values);
        long published = System.nanoTime();
        long applied = 0;
        while (applied < interventions) {
            Thread.sleep(250);
            applied = db.sql("SELECT count(*) FROM interventions WHERE project_id = :p").bind("p", project)
                    .map(row -> ((Number) row.get(0)).longValue()).one().block();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        double jvmCpu = BenchCpu.jvmSeconds();
        double cpu = BenchCpu.seconds() - cpuStarted;
        System.out.printf("ingestion: %,d records applied in %.1f s (published in %.1f s): %,.0f records/s (target >= 5,000/s)%n",
                interventions, seconds, (published - started) / 1e9, interventions / seconds);
        System.out.printf("ingestion CPU: %.1f s (this JVM, broker and producer included, and PostgreSQL's processes): "
                + "%.2f ms per record, %,.0f records per CPU-second (PostgreSQL alone: %.1f s so far)%n", cpu,
                cpu * 1000 / interventions, interventions / cpu, BenchCpu.seconds() - jvmCpu);

        String token = TestTokens.bearer(TestTokens.mint(new Caller(TestTokens.ACCOUNT, project.toString(), "bench", null, null,
                Set.of("outcomes.read", "intelligence.read"), Set.of())));
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String ledger = base + "/api/v2/projects/" + project + "/outcomes/ledger?days=365&pageSize=50";
        // page 500 (or the last page when there are fewer than 500 pages)
        String cursor = null;
        int deepest = 1;
        for (int page = 1; page < 500; page++) {
            JsonNode body = mapper.readTree(get(client, ledger + (cursor == null ? "" : "&cursor=" + cursor), token));
            if (!body.path("data").path("pagination").path("hasMore").asBoolean()) {
                break;
            }
            cursor = body.path("data").path("pagination").path("nextCursor").asString();
            deepest = page + 1;
        }
        System.out.printf("walked to page %d%n", deepest);
        String page500 = cursor == null ? ledger : ledger + "&cursor=" + cursor;
        JsonNode deep = mapper.readTree(get(client, page500, token));
        System.out.printf("page 500 holds %d items (totalCount %,d)%n", deep.path("data").path("items").size(),
                deep.path("data").path("pagination").path("totalCount").asLong());
        String whatWorks = base + "/api/v2/projects/" + project + "/intelligence/what-works?days=90";
        // warm-up: the JIT compiles the paths once before measuring
        for (int i = 0; i < samples; i++) {
            get(client, ledger, token);
            get(client, page500, token);
            get(client, whatWorks, token);
        }
        List<Double> first = time(client, ledger, token, samples);
        List<Double> fiveHundredth = time(client, page500, token, samples);
        List<Double> withImpact = time(client, ledger + "&impactWindows=true", token, samples);
        List<Double> e7 = time(client, whatWorks, token, samples);
        report("E2 page 1 (pageSize 50, days 365)", first);
        report("E2 page 500", fiveHundredth);
        report("E2 page 1 with impactWindows=true", withImpact);
        report("E7 what-works (days 90)", e7);
        System.out.printf("ratio page 500 / page 1: p50 %.2f, p99 %.2f (target <= 1.2)%n",
                percentile(fiveHundredth, 50) / percentile(first, 50), percentile(fiveHundredth, 99) / percentile(first, 99));
        context.close();
        System.exit(0);
    }

    private static void publish(String key, List<String> values) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            List<Future<?>> acks = new ArrayList<>();
            for (String value : values) {
                acks.add(producer.send(new ProducerRecord<>(Topics.OUTCOMES_MEASUREMENTS, key, value)));
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
    }

    private static String get(HttpClient client, String url, String token) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", token)
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static List<Double> time(HttpClient client, String url, String token, int samples) throws Exception {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            long t = System.nanoTime();
            get(client, url, token);
            millis.add((System.nanoTime() - t) / 1e6);
        }
        return millis;
    }

    private static void report(String what, List<Double> millis) {
        System.out.printf("%-40s p50 %6.1f ms  p99 %6.1f ms  (%d requests)%n", what, percentile(millis, 50),
                percentile(millis, 99), millis.size());
    }

    private static double percentile(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
