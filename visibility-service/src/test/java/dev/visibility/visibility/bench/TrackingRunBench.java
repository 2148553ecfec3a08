package dev.visibility.visibility.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.testing.BenchCpu;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.visibility.VisibilityServiceApplication;
import dev.visibility.visibility.demo.DemoData;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.ObjectMapper;

/**
 * tracking.runs ingestion benchmark: how fast visibility-service applies tracking runs (the run, its
 * responses, its public events in the outbox) once they are on the topic. Standalone: an embedded
 * Kafka broker and PostgreSQL and the service in this JVM.
 *
 * <p>Each round publishes the demo's runs ({@link DemoData}: daily runs of 24 samples, 15 KB each, a
 * failed one now and then) for {@code projects} new projects of {@code days} days each, all at once,
 * keyed by project as producers key them, then waits until every run is a row of
 * {@code tracking_runs} (stored in one transaction with its responses and outbox events). Prints
 * runs/s (from the first send until the last is applied) and the CPU that cost (this JVM, the
 * embedded PostgreSQL) per run. The first round runs on a service that just started, like the local
 * suite's first start with its demo data (2 projects × 120 days); the later rounds on warmer code.
 *
 * <pre>bench/TrackingRunBench.sh [rounds=4] [projects=2] [days=120]</pre>
 */
public final class TrackingRunBench {

    public static void main(String[] args) {
        try {
            bench(args.length > 0 ? Integer.parseInt(args[0]) : 4, args.length > 1 ? Integer.parseInt(args[1]) : 2,
                    args.length > 2 ? Integer.parseInt(args[2]) : 120);
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void bench(int rounds, int projects, int days) throws Exception {
        String[] arguments = SharedInfrastructure.benchArguments();
        long starting = System.nanoTime();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(VisibilityServiceApplication.class).run(arguments);
        ObjectMapper mapper = context.getBean(ObjectMapper.class);
        System.out.printf("visibility-service up in %.1f s (%d cores); %d rounds of %d projects × %d days of the demo's runs%n",
                (System.nanoTime() - starting) / 1e9, Runtime.getRuntime().availableProcessors(), rounds, projects, days);

        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config);
                Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl())) {
            for (int round = 1; round <= rounds; round++) {
                List<UUID> ids = new ArrayList<>();
                List<ProducerRecord<String, String>> records = new ArrayList<>();
                long bytes = 0;
                for (int p = 0; p < projects; p++) {
                    UUID project = UUID.randomUUID();
                    ids.add(project);
                    DemoData demo = new DemoData(project, "acct-bench", today, Duration.ofDays(30));
                    for (TrackingRunCompleted run : demo.trackingRuns(days, p % 2 == 0)) {
                        String json = mapper.writeValueAsString(run);
                        bytes += json.length();
                        records.add(new ProducerRecord<>(Topics.TRACKING_RUNS, project.toString(), json));
                    }
                }
                double jvm = BenchCpu.jvmSeconds();
                double pg = BenchCpu.postgresSeconds();
                long started = System.nanoTime();
                for (ProducerRecord<String, String> record : records) {
                    producer.send(record);
                }
                producer.flush();
                long deadline = started + Duration.ofMinutes(10).toNanos();
                while (applied(db, ids) < records.size()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("round " + round + ": not applied within 10 minutes");
                    }
                    Thread.sleep(20);
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                double jvmUsed = BenchCpu.jvmSeconds() - jvm;
                double pgUsed = BenchCpu.postgresSeconds() - pg;
                int n = records.size();
                System.out.printf("round %d: %d runs (%,d KB) applied in %.2f s: %.1f runs/s; CPU a run %.1f ms (JVM %.1f, PostgreSQL %.1f)%n",
                        round, n, bytes / 1024, seconds, n / seconds, 1000 * (jvmUsed + pgUsed) / n, 1000 * jvmUsed / n,
                        1000 * pgUsed / n);
            }
        }
        context.close();
    }

    /** Runs of these projects stored (with their responses and outbox events: one transaction). */
    private static int applied(Connection db, List<UUID> projects) throws Exception {
        try (PreparedStatement s = db.prepareStatement("SELECT count(*) FROM visibility.tracking_runs WHERE project_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("uuid", projects.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
