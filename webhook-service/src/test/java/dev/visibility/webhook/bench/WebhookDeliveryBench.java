package dev.visibility.webhook.bench;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.BenchCpu;
import dev.visibility.platform.testing.BenchStatements;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import dev.visibility.webhook.WebhookServiceApplication;
import dev.visibility.webhook.support.ReceiverTls;
import dev.visibility.webhook.support.Signatures;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Webhook delivery benchmark: the real service (Kafka broker and PostgreSQL embedded, as in the
 * tests), local HTTPS receivers ({@code receivers} ports of a Reactor Netty server), {@code projects}
 * projects with one webhook each, spread over the receivers (events are keyed by project, so they
 * spread over the partitions). Publishes {@code search-tracking.completed}
 * events on {@code public.events} at {@code rate} per second for {@code seconds}, then prints
 * deliveries/s and p50/p99 from publish to receipt, and checks every signature. A second phase
 * publishes {@code burst} events at once and prints the drain rate (capacity).
 *
 * <pre>
 * bench/WebhookDeliveryBench.sh [rate=1000] [seconds=20] [burst=20000] [projects=12] [receivers=4]
 * </pre>
 */
public final class WebhookDeliveryBench {

    private static final Pattern SEQ = Pattern.compile("\"runId\":\"bench-(\\d+)\"");

    public static void main(String[] args) {
        try {
            bench(args);
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void bench(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int burst = args.length > 2 ? Integer.parseInt(args[2]) : 20000;
        int projects = args.length > 3 ? Integer.parseInt(args[3]) : 12;
        int receivers = args.length > 4 ? Integer.parseInt(args[4]) : 4;

        Map<String, Object> properties = new HashMap<>(SharedInfrastructure.springProperties());
        properties.put("server.port", "0");
        properties.put("suite.webhook.tls.trust-store", ReceiverTls.trustStore().toString());
        properties.put("suite.webhook.tls.trust-store-password", ReceiverTls.PASSWORD);
        properties.put("logging.level.dev.visibility", "WARN");
        // the production defaults, not the tests' short time-out and back-off
        properties.put("suite.webhook.delivery.timeout", "10s");
        properties.put("suite.webhook.delivery.backoff-base", "10s");
        properties.put("suite.webhook.delivery.backoff-max", "2m");
        // -Dsuite.… system properties reach the service, to try other settings
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("suite."))
                .forEach(name -> properties.put(name, System.getProperty(name)));
        // as command-line arguments: they outrank every property source of the service
        String[] serviceArgs = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext service = new SpringApplicationBuilder(WebhookServiceApplication.class).run(serviceArgs);
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();

        try (NettyReceiver receiver = new NettyReceiver(receivers);
             KafkaProducer<String, String> producer = producer()) {
            List<String> projectIds = new ArrayList<>();
            Map<String, String> secrets = new HashMap<>();
            for (int i = 0; i < projects; i++) {
                String project = UUID.randomUUID().toString();
                projectIds.add(project);
                secrets.put(project, createWebhook(port, project, receiver.url(i, "/bench/" + i)));
            }
            System.out.printf("webhook delivery bench: %d cores, load average %.1f, %d projects with one webhook each,"
                    + " %d receiver ports%n", Runtime.getRuntime().availableProcessors(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), projects, receivers);

            // the JIT compiles the hot paths during a first burst; its figures are not the point. It takes
            // long: after 40,000 events the sustained phase still cost 1.8 times the CPU per delivery of the
            // burst that followed it (whose code the sustained phase had compiled); after 150,000, 1.4 times
            int warmUpBurst = Integer.getInteger("warmup.events", 150_000);
            Result warm = run(receiver, producer, projectIds, 0, warmUpBurst, 0);
            System.out.printf("warm-up   %6d events at once: %s%s%n", warmUpBurst, warm, load());
            // the JIT compilers were still taking a fifth of this JVM's CPU in a sustained phase after it (session
            // 31: C2's queue so long that methods went through tier 2 again), so that phase measured compiling;
            // like bench/GatewayOverhead.java, settle in rounds until they are done with the hot paths
            int warmUp = warmUpBurst + settle(receiver, producer, projectIds, warmUpBurst);
            Thread.sleep(2000);

            int sustained = rate * seconds;
            boolean statements = BenchStatements.reset();
            CpuMark steadyCpu = CpuMark.now();
            Result steady = run(receiver, producer, projectIds, warmUp, sustained, rate);
            System.out.printf("sustained %6d events offered at %d/s: %s%s%n", sustained, rate, steady, load());
            printCpu("the sustained phase", steadyCpu, CpuMark.now(), steady.delivered());
            if (statements) {
                BenchStatements.print("delivery", steady.delivered());
            }

            if (burst > 0) {
                if (statements) {
                    BenchStatements.reset();
                }
                CpuMark burstCpu = CpuMark.now();
                Result drain = run(receiver, producer, projectIds, warmUp + sustained, burst, 0);
                System.out.printf("burst     %6d events at once: %s%s%n", burst, drain, load());
                printCpu("the burst", burstCpu, CpuMark.now(), drain.delivered());
                if (statements) {
                    BenchStatements.print("delivery", drain.delivered());
                }
            }

            printStages(service, warmUp, sustained);
            printBatches(service, warmUp, sustained);
            int checked = verifySignatures(receiver.received(), projectIds, secrets);
            System.out.printf("signatures verified: %d of %d deliveries (%d events published)%n", checked,
                    receiver.received().size(), warmUp + sustained + burst);
        } finally {
            service.close();
        }
    }

    /**
     * Bursts of {@code settle.events} (20,000) from sequence number {@code first} until the JIT compiler
     * threads take at most {@code settle.jit} (0.03) of this JVM's CPU in one, at most {@code settle.rounds}
     * (20); answers how many events that published.
     */
    private static int settle(NettyReceiver receiver, KafkaProducer<String, String> producer, List<String> projects,
            int first) throws InterruptedException {
        int events = Integer.getInteger("settle.events", 20_000);
        double enough = Double.parseDouble(System.getProperty("settle.jit", "0.03"));
        int rounds = Integer.getInteger("settle.rounds", 20);
        int published = 0;
        for (int round = 1; round <= rounds; round++) {
            CpuMark before = CpuMark.now();
            Result result = run(receiver, producer, projects, first + published, events, 0);
            CpuMark after = CpuMark.now();
            published += events;
            double jvm = after.jvmSeconds() - before.jvmSeconds();
            double compilers = (compilerNanos(after) - compilerNanos(before)) / 1e9;
            double share = jvm > 0 ? compilers / jvm : 0;
            System.out.printf("settling  %6d events at once (round %d): %.0f deliveries/s; JIT compilers %.1f%% of the"
                    + " JVM's CPU, %.3f ms per delivery%n", events, round, result.perSecond(), 100 * share,
                    compilers * 1e3 / Math.max(1, result.delivered()));
            if (share <= enough) {
                return published;
            }
        }
        System.out.printf("settling: the JIT compilers still took more than %.0f%% after %d rounds%n", 100 * enough, rounds);
        return published;
    }

    private static long compilerNanos(CpuMark mark) {
        return mark.vmThreads().entrySet().stream().filter(e -> BenchCpu.JIT_COMPILERS.matcher(e.getKey()).find())
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** The machine's 1-minute load average when a phase ended (two other engineers' builds share the 2 cores). */
    private static String load() {
        return String.format("; load average %.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** What one phase measured. */
    record Result(int delivered, double perSecond, double p50Millis, double p99Millis, double maxMillis) {

        @Override
        public String toString() {
            return String.format("%d delivered, %.0f deliveries/s, publish->receipt p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    delivered, perSecond, p50Millis, p99Millis, maxMillis);
        }
    }

    /** Publishes {@code count} events from sequence number {@code first}, at {@code rate}/s (0: at once), and waits for all. */
    private static Result run(NettyReceiver receiver, KafkaProducer<String, String> producer, List<String> projects,
            int first, int count, int rate) throws InterruptedException {
        int before = receiver.count();
        long[] published = new long[count];
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (rate > 0) {
                long due = start + (long) i * 1_000_000_000L / rate;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            int seq = first + i;
            String project = projects.get(seq % projects.size());
            UUID eventId = UUID.randomUUID();
            String value = "{\"eventId\":\"" + eventId + "\",\"event\":\"search-tracking.completed\",\"projectId\":\""
                    + project + "\",\"accountId\":\"" + TestTokens.ACCOUNT + "\",\"timestamp\":\"" + Instant.now()
                    + "\",\"data\":{\"runId\":\"bench-" + seq + "\",\"finalStatus\":\"completed\"}}";
            ProducerRecord<String, String> record = new ProducerRecord<>(Topics.PUBLIC_EVENTS, project, value);
            record.headers().add(Topics.EVENT_ID_HEADER, eventId.toString().getBytes(StandardCharsets.UTF_8));
            record.headers().add(Topics.EVENT_TYPE_HEADER, "search-tracking.completed".getBytes(StandardCharsets.UTF_8));
            published[i] = System.nanoTime();
            producer.send(record);
        }
        producer.flush();
        receiver.await(before + count, Duration.ofMinutes(10).toMillis());
        List<NettyReceiver.Received> all = receiver.received();
        long[] latencies = new long[count];
        boolean[] seen = new boolean[count];
        int found = 0;
        long last = 0;
        for (NettyReceiver.Received request : all) {
            Matcher matcher = SEQ.matcher(new String(request.body(), StandardCharsets.UTF_8));
            if (!matcher.find()) {
                continue;
            }
            int index = Integer.parseInt(matcher.group(1)) - first;
            if (index < 0 || index >= count || seen[index]) {
                continue;
            }
            seen[index] = true;
            latencies[found++] = request.nanoTime() - published[index];
            last = Math.max(last, request.nanoTime());
        }
        long[] sorted = Arrays.copyOf(latencies, found);
        Arrays.sort(sorted);
        double elapsed = (last - start) / 1e9;
        return new Result(found, found / elapsed, percentile(sorted, 0.50), percentile(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    }

    /** The JVM's own threads, which its thread list leaves out: the collector's, the JIT compilers', the VM thread. */
    private static final Pattern VM_THREAD = Pattern.compile("^(GC Thread|G1 |C1 Compiler|C2 Compiler|VM Thread|VM Periodic)");

    /** CPU time of this JVM's threads, by thread name with digits removed (nanoseconds). */
    private static Map<String, Long> cpuByThreadGroup() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new HashMap<>();
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                out.merge(info.getThreadName().replaceAll("\\d+", "#"), cpu, Long::sum);
            }
        }
        return out;
    }

    /**
     * The CPU counters at one moment: this JVM's threads by name, the whole JVM (with its collector and JIT
     * compiler threads, which the thread list leaves out), the embedded PostgreSQL ({@link BenchCpu}) and
     * the machine.
     */
    private record CpuMark(long nanoTime, Map<String, Long> threads, Map<String, Long> vmThreads, double jvmSeconds,
            double postgresSeconds, long[] machineTicks) {

        static CpuMark now() {
            return new CpuMark(System.nanoTime(), cpuByThreadGroup(), BenchCpu.threadsNamed(VM_THREAD), BenchCpu.jvmSeconds(),
                    BenchCpu.postgresSeconds(), BenchCpu.machineTicks());
        }
    }

    /** CPU by thread name between two readings. */
    private static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> used = new HashMap<>();
        after.forEach((name, cpu) -> used.put(name, cpu - before.getOrDefault(name, 0L)));
        return used;
    }

    private static void printCpu(String phase, CpuMark before, CpuMark after, int deliveries) {
        double seconds = (after.nanoTime() - before.nanoTime()) / 1e9;
        double postgres = after.postgresSeconds() - before.postgresSeconds();
        double jvm = after.jvmSeconds() - before.jvmSeconds();
        int n = Math.max(1, deliveries);
        Map<String, Long> used = since(before.threads(), after.threads());
        long total = used.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("CPU during %s: machine %.0f%% busy (%d cores); bench JVM %.2f cores, %.2f ms per delivery"
                        + " (its threads %.2f ms, the collector and JIT compilers the rest); PostgreSQL %.2f cores, %.2f ms"
                        + " per delivery; JVM threads by name:%n", phase,
                100 * BenchCpu.machineBusy(before.machineTicks(), after.machineTicks()),
                Runtime.getRuntime().availableProcessors(), jvm / seconds, jvm * 1e3 / n, total / 1e6 / n,
                postgres / seconds, postgres * 1e3 / n);
        used.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                .forEach(e -> System.out.printf("  %5.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey()));
        System.out.printf("the JVM's own threads, ms per delivery: %s%n", since(before.vmThreads(), after.vmThreads())
                .entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> String.format("%s %.3f", e.getKey(), e.getValue() / 1e6 / n))
                .reduce((a, b) -> a + ", " + b).orElse("none"));
        // the service's own threads apart from the bench's (receivers, broker, publisher); producer network
        // threads are both the service's and the publisher's, so they are counted apart
        long service = 0;
        long producers = 0;
        for (Map.Entry<String, Long> e : used.entrySet()) {
            String name = e.getKey();
            if (name.startsWith("kafka-producer-network-thread")) {
                producers += e.getValue();
            } else if (name.startsWith("reactor-http-") || name.startsWith("reactor-tcp-") || name.startsWith("webhook-")
                    || name.startsWith("delivery-retry-") || name.startsWith("parallel-") || name.startsWith("boundedElastic-")
                    || name.startsWith("kafka-coordinator-heartbeat-thread | webhook")) {
                service += e.getValue();
            }
        }
        System.out.printf("service threads: %.2f-%.2f ms per delivery (without-with the producers' network threads),"
                        + " i.e. %.0f-%.0f deliveries/s per core%n", service / 1e6 / Math.max(1, deliveries),
                (service + producers) / 1e6 / Math.max(1, deliveries), 1e9 * deliveries / Math.max(1, service + producers),
                1e9 * deliveries / Math.max(1, service));
    }

    /** Where the time goes in each phase, from the service's own tables: publish to fan-out, fan-out to attempt, the attempt. */
    private static void printStages(ConfigurableApplicationContext service, int warmUp, int sustained) {
        DatabaseClient db = service.getBean(DatabaseClient.class);
        String sql = """
                SELECT phase,
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY fan_out) AS fan_out_p50,
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY fan_out) AS fan_out_p99,
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY queued) AS queued_p50,
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY queued) AS queued_p99,
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS attempt_p50,
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS attempt_p99
                FROM (SELECT CASE WHEN seq < :warmUp THEN '1 warm-up' WHEN seq < :sustainedEnd THEN '2 sustained'
                                  ELSE '3 burst' END AS phase, fan_out, queued, duration_ms
                      FROM (SELECT substring(e.body::json -> 'data' ->> 'runId' FROM 7)::int AS seq,
                                   extract(epoch FROM d.created_at - (e.body::json ->> 'timestamp')::timestamptz) * 1000 AS fan_out,
                                   extract(epoch FROM a.at - d.created_at) * 1000 AS queued, a.duration_ms
                            FROM deliveries d JOIN events e ON e.event_id = d.event_id
                            JOIN delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1) numbered) phased
                GROUP BY phase ORDER BY phase""";
        db.sql(sql).bind("warmUp", warmUp).bind("sustainedEnd", warmUp + sustained).fetch().all()
                .doOnNext(row -> System.out.printf("stages, %s, ms: publish->fan-out p50 %.1f p99 %.1f; fan-out->attempt"
                                + " p50 %.1f p99 %.1f; attempt (POST) p50 %.1f p99 %.1f%n", String.valueOf(row.get("phase")).substring(2),
                        number(row, "fan_out_p50"), number(row, "fan_out_p99"), number(row, "queued_p50"),
                        number(row, "queued_p99"), number(row, "attempt_p50"), number(row, "attempt_p99")))
                .blockLast(Duration.ofSeconds(60));
    }

    /**
     * How big the fan-out's batches were in each phase, from the service's own tables: the
     * deliveries one fan-out statement made share its {@code created_at} (the transaction's time).
     */
    private static void printBatches(ConfigurableApplicationContext service, int warmUp, int sustained) {
        DatabaseClient db = service.getBean(DatabaseClient.class);
        String sql = """
                SELECT phase, count(*) AS deliveries, count(DISTINCT created_at) AS fan_outs
                FROM (SELECT CASE WHEN seq < :warmUp THEN '1 warm-up' WHEN seq < :sustainedEnd THEN '2 sustained'
                                  ELSE '3 burst' END AS phase, created_at
                      FROM (SELECT substring(e.body::json -> 'data' ->> 'runId' FROM 7)::int AS seq, d.created_at
                            FROM deliveries d JOIN events e ON e.event_id = d.event_id) numbered) phased
                GROUP BY phase ORDER BY phase""";
        db.sql(sql).bind("warmUp", warmUp).bind("sustainedEnd", warmUp + sustained).fetch().all()
                .doOnNext(row -> System.out.printf("batches, %s: %.1f deliveries per fan-out statement%n",
                        String.valueOf(row.get("phase")).substring(2), number(row, "deliveries") / number(row, "fan_outs")))
                .blockLast(Duration.ofSeconds(60));
    }

    private static double number(Map<String, Object> row, String column) {
        Object value = row.get(column);
        return value == null ? Double.NaN : ((Number) value).doubleValue();
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static int verifySignatures(List<NettyReceiver.Received> received, List<String> projects, Map<String, String> secrets) {
        int verified = 0;
        for (NettyReceiver.Received request : received) {
            String path = request.path();
            String project = projects.get(Integer.parseInt(path.substring(path.lastIndexOf('/') + 1)));
            if (Signatures.verifies(secrets.get(project), request.body(), request.signature())) {
                verified++;
            }
        }
        return verified;
    }

    private static String createWebhook(int port, String project, String url) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v2/projects/" + project + "/webhooks"))
                .header("Authorization", TestTokens.bearer(TestTokens.forProject(project, "webhooks.write")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"" + url + "\",\"events\":[\"search-tracking.completed\"]}"))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("Could not create a webhook: " + response.statusCode() + " " + response.body());
        }
        Matcher secret = Pattern.compile("\"secret\":\"([^\"]+)\"").matcher(response.body());
        if (!secret.find()) {
            throw new IllegalStateException("No secret in " + response.body());
        }
        return secret.group(1);
    }

    private static KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // Kafka's default (5 ms), which the suite's producers (the services' outbox relays) keep;
        // -Dpublisher.linger.ms to try another (this benchmark used 2 ms until 2026-11-27)
        props.put(ProducerConfig.LINGER_MS_CONFIG, Integer.getInteger("publisher.linger.ms", 5));
        return new KafkaProducer<>(props);
    }

    private WebhookDeliveryBench() {
    }
}
