package dev.visibility.traffic.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.visibility.platform.consumer.TopicConsumer;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.BenchCpu;
import dev.visibility.platform.testing.BenchStatements;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import dev.visibility.traffic.TrafficServiceApplication;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * traffic-service benchmark (issue 18), standalone: an embedded Kafka broker and PostgreSQL (as in
 * the tests) and the service in this JVM, on this machine.
 *
 * <ol>
 * <li><b>Ingestion</b>: publishes hits onto {@code traffic.hits} at {@code rate} per second for
 * {@code seconds} ({@code projects} projects, two hostnames each, 5,000 paths, 20,000 sessions, 70 %
 * crawlers; made before the clock starts), plus one probe hit every 200 ms for a probe project whose
 * E4 total is polled over HTTP every 100 ms. Prints the rate the rollups took the hits in (sustained, from the first send until
 * every hit is applied) and p50/p99/max of "published to visible in E4" of the probes. Before it, a
 * warm-up ({@code -Dwarmup.hits}) and settling rounds until the JIT compilers take at most
 * {@code -Dsettle.jit} of this JVM's CPU in one.</li>
 * <li><b>Drain</b> ({@code -Ddrain.hits}, by default as many as the ingestion phase; 0: none): that many
 * hits published while the service's consumers are paused, then taken in as fast as the service can:
 * its capacity without the sensors' producer on the same two cores.</li>
 * <li><b>E4 latency</b>: the rollups that {@code hits} hits over 90 days on {@code paths} distinct
 * paths make (two hostnames, /docs and /blog, 50 sections each), inserted directly with SQL (the
 * benchmark may; the service never does), then {@code samples} sequential E4 requests per query
 * after a warm-up: no filter, {@code domain}, {@code domain} + a large {@code pathPrefix}, and
 * {@code domain} + a leaf path. Prints p50/p99 per query (target p99 ≤ 50 ms).</li>
 * </ol>
 *
 * <pre>bench/TrafficBench.sh [rate=20000] [seconds=30] [projects=12] [samples=500] [paths=50000] [hits=10000000]</pre>
 */
public final class TrafficBench {

    /** How often the probe project's E4 total is read: the resolution of "published → counted by E4". */
    static final long PROBE_POLL_MILLIS = 100;
    static final Pattern TOTAL = Pattern.compile("\"totalEvents\":(\\d+)");
    static final List<String> BOTS = List.of("GPTBot", "OAI-SearchBot", "ClaudeBot", "PerplexityBot", "CCBot");

    /**
     * How hits fall into sessions ({@code -Dsessions=}): {@code random} (the first benchmarks'): each
     * hit's session drawn from 20,000 per kind, so that a project's hits barely ever share a session
     * (each hit is a new session in nearly each of its five scopes: the most session rows a hit can
     * cost); {@code demo}: as the demo data makes them: each crawler keeps a session for hours (here
     * one of {@code crawler.sessions}, default 500, per project: many crawler addresses) and a referred
     * visitor reads three pages.
     */
    static final String SESSIONS = System.getProperty("sessions", "random");
    static final int CRAWLER_SESSIONS = Integer.getInteger("crawler.sessions", 500);
    /** How the sensors mint eventIds: {@code random} (version 4) or {@code v7} (RFC 9562's time-ordered version 7). */
    static final String IDS = System.getProperty("ids", "random");
    /** How the benchmark's projects fall on the partitions of {@code traffic.hits} ({@code -Dprojects.spread=}): {@code even} or {@code random} ({@link #projects}). */
    static final String SPREAD = System.getProperty("projects.spread", "even");

    public static void main(String[] args) {
        try {
            bench(args);
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    static int arg(String[] args, int i, int fallback) {
        return args.length > i ? Integer.parseInt(args[i]) : fallback;
    }

    private static void bench(String[] args) throws Exception {
        int rate = arg(args, 0, 20_000);
        int seconds = arg(args, 1, 30);
        int projects = arg(args, 2, 12);
        int samples = arg(args, 3, 500);
        int paths = arg(args, 4, 50_000);
        long hits = args.length > 5 ? Long.parseLong(args[5]) : 10_000_000L;

        String[] arguments = SharedInfrastructure.benchArguments();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(TrafficServiceApplication.class).run(arguments);
        String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
        String sharedBuffers;
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl()); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SHOW shared_buffers")) {
            rs.next();
            sharedBuffers = rs.getString(1);
        }
        System.out.printf("traffic-service up (%d cores; PostgreSQL's shared_buffers %s); rate %,d hits/s for %d s over %d projects; sessions %s%n",
                Runtime.getRuntime().availableProcessors(), sharedBuffers, rate, seconds, projects,
                SESSIONS.equals("demo") ? "as the demo's (" + CRAWLER_SESSIONS + " crawler sessions a project, visitors read 3 pages)"
                        : "random (20,000 a kind: nearly every hit a new session)");
        System.out.println("eventIds " + (IDS.equals("v7") ? "time-ordered (UUID version 7)" : "random (UUID version 4)")
                + "; projects spread over the " + partitions() + " partitions of " + Topics.TRAFFIC_HITS + " "
                + (SPREAD.equals("random") ? "at random" : "evenly"));
        System.out.println("processor: " + processor());

        ingestion(base, rate, seconds, projects, context.getBean(MeterRegistry.class));
        long drain = Long.getLong("drain.hits", (long) rate * seconds);
        if (drain > 0) {
            drain(drain, projects, context.getBean(KafkaListenerEndpointRegistry.class));
        }
        e4(base, samples, paths, hits);
        context.close();
    }

    // ---------------------------------------------------------------- ingestion

    private static void ingestion(String base, int rate, int seconds, int projectCount, MeterRegistry meters) throws Exception {
        Properties config = producerConfig();
        Random random = new Random(42);

        // warm-up: the same load on other projects, through the same producer and with the same probes
        // polled over HTTP, until the JIT has compiled what the measured phase runs (in a 20-second run
        // without warm-up the JIT's compiler threads took a fifth of the machine's CPU; after a warm-up
        // without the probes' HTTP path and with another producer they still took a third of this JVM's
        // CPU in the measured phase): "sustained" is what the service does once it runs, not in its
        // first minute
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        long warmup = Long.getLong("warmup.hits", 1_500_000L);
        long total = (long) rate * seconds;
        List<UUID> projects = projects(projectCount);
        Probes probes = new Probes(UUID.randomUUID(), random);
        Hits hits = Hits.make(projects, total, random);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            // then settling rounds until the JIT's compiler threads take at most settle.jit of this JVM's
            // CPU in one (at most settle.rounds): after 1.5 million hits they still took 11-15 µs a hit in
            // the measured phase (session 33), start-up cost counted as the service's
            double settleJit = Double.parseDouble(System.getProperty("settle.jit", "0.03"));
            int settleRounds = Integer.getInteger("settle.rounds", 6);
            long settleHits = Long.getLong("settle.hits", 300_000L);
            for (int number = 0; warmup > 0 && number <= settleRounds; number++) {
                long count = number == 0 ? warmup : settleHits;
                List<UUID> warmupProjects = projects(projectCount);
                Probes warmupProbes = new Probes(UUID.randomUUID(), random);
                Hits warmupHits = Hits.make(warmupProjects, count, random);
                Thread warmupWatcher = watch(http, base, warmupProbes);
                Meter round = Meter.start();
                publish(producer, warmupHits, rate, round.started(), warmupProbes);
                awaitApplied(warmupProjects, count, round.started());
                warmupWatcher.interrupt();
                Spent spent = round.stop();
                double share = spent.jit() / (spent.cpu() - spent.pg());
                System.out.printf("%s: %,d hits applied in %.1f s, the JIT compilers %.1f %% of this JVM's CPU (%s)%n",
                        number == 0 ? "warm-up" : "settling round " + number, count, spent.seconds(), 100 * share, Instant.now());
                if (share <= settleJit) {
                    break;
                }
            }
            Thread watcher = watch(http, base, probes);
            boolean statements = BenchStatements.reset();
            double[] scopesStarted = sessionScopes(meters);
            Meter meter = Meter.start();
            long started = meter.started();
            publish(producer, hits, rate, started, probes);
            double sendSeconds = (System.nanoTime() - started) / 1e9;
            long appliedAtLastSend = applied(projects);
            System.out.printf("published %,d hits in %.1f s (%,.0f/s) and %d probes%n", total, sendSeconds, total / sendSeconds,
                    probes.sent.size());
            // whether the service kept up: what was not applied yet when the last hit was sent, in hits and in
            // the offered rate's time (a service that keeps up is behind by its batches in flight only)
            System.out.printf("BEHIND AT THE LAST SEND: %,d of %,d hits not applied yet (%.2f s of the offered rate)%n",
                    total - appliedAtLastSend, total, (total - appliedAtLastSend) / (total / sendSeconds));
            long applied = awaitApplied(projects, total, started);
            System.out.printf("measured phase over (%s)%n", Instant.now());
            Spent spent = meter.stop();
            // the probes: until the last one is seen
            long probeDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (probes.latencies.size() < probes.sent.size() && System.nanoTime() < probeDeadline) {
                Thread.sleep(50);
            }
            watcher.interrupt();
            report(total, applied, spent, probes);
            double[] scopesEnded = sessionScopes(meters);
            double cached = scopesEnded[0] - scopesStarted[0];
            double looked = scopesEnded[1] - scopesStarted[1];
            System.out.printf("SESSION SCOPES: %.2f a hit after the batches' folding, %.1f %% vouched for by the session cache"
                    + " (neither looked up nor written), %.2f a hit looked up%n", (cached + looked) / applied,
                    cached + looked == 0 ? 0 : 100 * cached / (cached + looked), looked / applied);
            if (statements) {
                BenchStatements.print("hit", applied);
            }
        }
    }

    /**
     * The service's capacity without the sensors on the same cores: {@code count} hits published while
     * the service's {@code traffic.hits} consumers are paused, then taken in from the topic as fast as the
     * service can. What the sustained phase measures with the sensors' producer beside the service (about
     * a sixth of the JVM's CPU a hit goes to publishing) this phase leaves out; the broker's work of
     * serving the fetches stays in. No probes: a probe would wait behind the backlog.
     */
    private static void drain(long count, int projectCount, KafkaListenerEndpointRegistry registry) throws Exception {
        MessageListenerContainer consumers = registry.getListenerContainer(TopicConsumer.listenerId(Topics.TRAFFIC_HITS));
        if (consumers == null) {
            throw new IllegalStateException("no listener container for " + Topics.TRAFFIC_HITS);
        }
        consumers.pause();
        long pauseDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!consumers.isContainerPaused()) {
            if (System.nanoTime() > pauseDeadline) {
                throw new IllegalStateException("the traffic.hits consumers did not pause within 30 s");
            }
            Thread.sleep(20);
        }
        List<UUID> projects = projects(projectCount);
        Hits hits = Hits.make(projects, count, new Random(7));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig())) {
            AtomicLongArray perPartition = new AtomicLongArray(partitions());
            long sendStarted = System.nanoTime();
            for (int i = 0; i < hits.size(); i++) {
                producer.send(hits.record(i),
                        (metadata, failure) -> {
                            if (failure == null) {
                                perPartition.incrementAndGet(metadata.partition());
                            }
                        });
            }
            producer.flush();
            System.out.printf("DRAIN: %,d hits published in %.1f s while the consumers were paused; by partition %s%n", count,
                    (System.nanoTime() - sendStarted) / 1e9, perPartition);
        }
        Meter meter = Meter.start();
        consumers.resume();
        long applied = awaitApplied(projects, count, meter.started());
        Spent spent = meter.stop();
        System.out.printf("DRAIN: %,d of %,d hits applied to the rollups in %.1f s from the consumers' resumption: %,.0f hits/s%n",
                applied, count, spent.seconds(), applied / spent.seconds());
        System.out.printf("DRAIN CPU: %.0f µs per hit (JVM with the broker %.0f, of which the JIT compilers %.0f; PostgreSQL %.0f);"
                + " the machine's %d cores %.0f %% busy; %,.0f bytes of WAL a hit%n", spent.cpu() * 1e6 / applied,
                (spent.cpu() - spent.pg()) * 1e6 / applied, spent.jit() * 1e6 / applied, spent.pg() * 1e6 / applied,
                Runtime.getRuntime().availableProcessors(), 100 * spent.busy(), (double) spent.walBytes() / applied);
        spent.printThreads("DRAIN", applied);
    }

    /** The counters a measured phase is read against, taken at its start ({@code started}: its nanoTime). */
    private record Meter(long[] walAt, double cpu, double pg, Map<String, Long> threads, long[] machine, long started) {

        static Meter start() throws Exception {
            return new Meter(TrafficBench.wal(), BenchCpu.seconds(), BenchCpu.postgresSeconds(), BenchCpu.threadsNamed(ALL_THREADS),
                    BenchCpu.machineTicks(), System.nanoTime());
        }

        /** What the phase spent from its start until now. */
        Spent stop() throws Exception {
            double seconds = (System.nanoTime() - started) / 1e9;
            double busy = BenchCpu.machineBusy(machine, BenchCpu.machineTicks());
            long[] ended = TrafficBench.wal();
            Map<String, Long> used = new HashMap<>();
            BenchCpu.threadsNamed(ALL_THREADS).forEach((name, cpu) -> used.put(name, cpu - threads.getOrDefault(name, 0L)));
            return new Spent(seconds, BenchCpu.seconds() - cpu, BenchCpu.postgresSeconds() - pg, used, busy,
                    ended[0] - walAt[0], ended[1] - walAt[1]);
        }
    }

    /**
     * A phase's wall seconds, CPU seconds (this JVM and PostgreSQL; PostgreSQL's), this JVM's CPU nanoseconds by
     * thread name as the kernel has it (digits as #; its JIT compilers' among them), the machine's busy share, the WAL
     * bytes and checkpoints it wrote.
     */
    private record Spent(double seconds, double cpu, double pg, Map<String, Long> threads, double busy, long walBytes,
            long checkpoints) {

        /** The JIT compiler threads' CPU seconds. */
        double jit() {
            return threads.entrySet().stream().filter(e -> BenchCpu.JIT_COMPILERS.matcher(e.getKey()).find())
                    .mapToLong(Map.Entry::getValue).sum() / 1e9;
        }

        /** The JVM's threads that took the most CPU, in µs a hit: where the JVM's share went. */
        void printThreads(String phase, long hits) {
            String top = threads.entrySet().stream().filter(e -> e.getValue() > 0)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                    .map(e -> String.format("%s %.1f", e.getKey(), e.getValue() / 1e3 / hits))
                    .collect(Collectors.joining(", "));
            System.out.printf("%s THREADS (µs a hit, by name as the kernel has it): %s%n", phase, top);
        }
    }

    /** The sensors' producer: every replica acknowledging (so idempotent, Kafka's default then), batched as a sensor gateway would. */
    private static Properties producerConfig() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    /** The service's session scopes so far: those its session cache vouched for, and those it looked up. */
    private static double[] sessionScopes(MeterRegistry meters) {
        Counter cached = meters.find("traffic.session.scopes").tag("lookup", "cached").counter();
        Counter database = meters.find("traffic.session.scopes").tag("lookup", "database").counter();
        return new double[] {cached == null ? 0 : cached.count(), database == null ? 0 : database.count()};
    }

    /** Polls the probe project's E4 total every {@link #PROBE_POLL_MILLIS} and notes when each of its probes became visible. */
    private static Thread watch(HttpClient http, String base, Probes probes) {
        String probeToken = TestTokens.bearer(TestTokens.forProject(probes.project.toString(), "traffic.read"));
        Thread watcher = new Thread(() -> {
            int seen = 0;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(PROBE_POLL_MILLIS);
                    int visible = (int) total(http, base, probes.project, probeToken, "");
                    long now = System.nanoTime();
                    for (; seen < visible && seen < probes.sent.size(); seen++) {
                        probes.latencies.add(now - probes.sent.get(seen));
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // an answer that did not come is tried again at the next tick
                }
            }
        }, "bench-probe-watcher");
        watcher.setDaemon(true);
        watcher.start();
        return watcher;
    }

    private static void report(long total, long applied, Spent spent, Probes probes) {
        System.out.printf("INGESTION: %,d of %,d hits applied to the rollups in %.1f s from the first send: %,.0f hits/s sustained%n",
                applied, total, spent.seconds(), applied / spent.seconds());
        System.out.printf("INGESTION CPU: %.1f s (this JVM, broker and producer included, and PostgreSQL's processes): "
                + "%.0f µs per hit (JVM %.0f, PostgreSQL %.0f), %,.0f hits per CPU-second%n", spent.cpu(), spent.cpu() * 1e6 / applied,
                (spent.cpu() - spent.pg()) * 1e6 / applied, spent.pg() * 1e6 / applied, applied / spent.cpu());
        System.out.printf("INGESTION MACHINE: its %d cores %.0f %% busy during the phase (/proc/stat)%n",
                Runtime.getRuntime().availableProcessors(), 100 * spent.busy());
        System.out.printf("INGESTION JIT: the compiler threads took %.1f s of the JVM's CPU (%.0f µs per hit): near 0 once warm%n",
                spent.jit(), spent.jit() * 1e6 / applied);
        System.out.printf("INGESTION WAL: %,.0f bytes per hit, %d checkpoints%n", (double) spent.walBytes() / applied,
                spent.checkpoints());
        spent.printThreads("INGESTION", applied);
        List<Long> latencies = new ArrayList<>(probes.latencies);
        Collections.sort(latencies);
        if (!latencies.isEmpty()) {
            System.out.printf("VISIBLE IN E4 (published -> counted by E4, %d probes): p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                    latencies.size(), pct(latencies, 50) / 1e6, pct(latencies, 99) / 1e6, latencies.get(latencies.size() - 1) / 1e6);
        }
    }

    /** Every thread of this JVM ({@link BenchCpu#threadsNamed}: its collector's and JIT compilers' too). */
    private static final Pattern ALL_THREADS = Pattern.compile("");

    /** PostgreSQL's WAL position in bytes and how many checkpoints it made so far. */
    private static long[] wal() throws Exception {
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl()); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0', num_timed + num_requested FROM pg_stat_checkpointer")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /**
     * {@code count} new projects. With {@link #SPREAD} {@code even} (the default) they are drawn so that
     * each partition of {@code traffic.hits} holds as many of them as the others (by the producer's own
     * choice of partition for a key): a project's batches are applied one at a time (its advisory lock),
     * so with 12 random projects on 3 partitions one consumer often had half of the hits and the cores
     * waited for it (the machine 86-88 % busy with a 50 % partition, 94-98 % with 41 %), which made
     * the rate depend on the draw. {@code random}: any projects, as before session 33.
     */
    private static List<UUID> projects(int count) {
        int partitions = partitions();
        int[] held = new int[partitions];
        int most = (count + partitions - 1) / partitions;
        List<UUID> projects = new ArrayList<>();
        while (projects.size() < count) {
            UUID project = UUID.randomUUID();
            int partition = Utils.toPositive(Utils.murmur2(project.toString().getBytes(StandardCharsets.UTF_8))) % partitions;
            if (SPREAD.equals("random") || held[partition] < most) {
                held[partition]++;
                projects.add(project);
            }
        }
        return projects;
    }

    private static int partitions;

    /** How many partitions {@code traffic.hits} has (the service made the topic at its start). */
    private static synchronized int partitions() {
        if (partitions == 0) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.kafkaBootstrapServers()))) {
                partitions = admin.describeTopics(List.of(Topics.TRAFFIC_HITS)).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get(Topics.TRAFFIC_HITS).partitions().size();
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the partitions of " + Topics.TRAFFIC_HITS, e);
            }
        }
        return partitions;
    }

    /**
     * The sensors' records, made before the clock starts: building them (random eventIds, JSON) is the
     * sensors' work, not the service's, and on two shared cores it would slow the ingestion down. Kept
     * as their records' bytes: the values in a few large chunks (a handful of objects, which the
     * collector neither copies nor traces, and frees at once when the hits are published) rather than
     * a string a hit. Sessions 10–34 kept a string a
     * hit: 1.5 million of them during the warm-up and 400,000 during the measured phase, old objects
     * that made G1 mark and collect while the service ran (its concurrent and parallel threads 4–9 µs
     * a hit in the ingestion phase): the sensors' memory, not the service's work.
     */
    private static final class Hits {

        private static final int CHUNK = 16 << 20;

        private final byte[][] projectKeys;
        private final byte[] project;
        private final List<byte[]> chunks = new ArrayList<>();
        /** per hit: its chunk (high 32 bits) and offset in it (low 32 bits) */
        private final long[] at;
        private final int[] length;

        private Hits(List<UUID> projects, int total) {
            if (projects.size() > 255) {
                throw new IllegalArgumentException("at most 255 projects: " + projects.size());
            }
            projectKeys = projects.stream().map(p -> p.toString().getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
            project = new byte[total];
            at = new long[total];
            length = new int[total];
        }

        static Hits make(List<UUID> projects, long total, Random random) {
            Instant generatedAt = Instant.now();
            Hits hits = new Hits(projects, (int) total);
            int[][] visitors = new int[projects.size()][1];
            byte[] chunk = new byte[CHUNK];
            hits.chunks.add(chunk);
            int used = 0;
            for (int i = 0; i < total; i++) {
                int project = random.nextInt(projects.size());
                byte[] value = hit(projects.get(project), random, generatedAt, visitors[project]).getBytes(StandardCharsets.UTF_8);
                if (used + value.length > CHUNK) {
                    chunk = new byte[CHUNK];
                    hits.chunks.add(chunk);
                    used = 0;
                }
                System.arraycopy(value, 0, chunk, used, value.length);
                hits.project[i] = (byte) project;
                hits.at[i] = ((long) (hits.chunks.size() - 1) << 32) | used;
                hits.length[i] = value.length;
                used += value.length;
            }
            return hits;
        }

        int size() {
            return at.length;
        }

        /** The record of hit {@code i}: its project's id as key, its JSON as value (a copy, as a serializer would make). */
        ProducerRecord<byte[], byte[]> record(int i) {
            int offset = (int) at[i];
            return new ProducerRecord<>(Topics.TRAFFIC_HITS, projectKeys[project[i] & 0xFF],
                    Arrays.copyOfRange(chunks.get((int) (at[i] >>> 32)), offset, offset + length[i]));
        }
    }

    /** One probe hit every 200 ms for a project of its own, and when each was sent and became visible. */
    private record Probes(UUID project, Random random, List<Long> sent, List<Long> latencies) {

        Probes(UUID project, Random random) {
            this(project, random, Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
        }
    }

    /** Publishes {@code hits} at {@code rate} a second in 10 ms ticks from {@code started}, with {@code probes} when not null. */
    private static void publish(KafkaProducer<byte[], byte[]> producer, Hits hits, int rate, long started, Probes probes)
            throws InterruptedException {
        int total = hits.size();
        long perTick = Math.max(1, rate / 100);
        long nextProbe = started;
        int next = 0;
        for (long tick = 0; next < total; tick++) {
            long due = started + tick * 10_000_000L;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            for (long i = 0; i < perTick && next < total; i++, next++) {
                producer.send(hits.record(next));
            }
            if (probes != null && System.nanoTime() >= nextProbe) {
                probes.sent().add(System.nanoTime());
                producer.send(new ProducerRecord<>(Topics.TRAFFIC_HITS, probes.project().toString().getBytes(StandardCharsets.UTF_8),
                        hit(probes.project(), probes.random(), Instant.now(), new int[1]).getBytes(StandardCharsets.UTF_8)));
                nextProbe += 200_000_000L;
            }
        }
        producer.flush();
    }

    /** The machine's processor as /proc/cpuinfo names it, with its clock: the speed of this machine varies from day to day. */
    private static String processor() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            List<String> wanted = lines.filter(l -> l.startsWith("model name") || l.startsWith("cpu MHz"))
                    .limit(2).map(l -> l.substring(l.indexOf(':') + 1).trim()).toList();
            return String.join(", ", wanted) + (wanted.size() == 2 ? " MHz" : "");
        } catch (IOException | RuntimeException e) {
            return "unknown (" + e + ")";
        }
    }

    /** How many hits the rollups (project scope) of {@code projects} hold now. */
    private static long applied(List<UUID> projects) throws SQLException {
        try (AppliedCount count = new AppliedCount(projects)) {
            return count.now();
        }
    }

    /** Waits (10 minutes at most) until the rollups (project scope) of {@code projects} hold {@code total} hits; answers how many they hold. */
    private static long awaitApplied(List<UUID> projects, long total, long started) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        long applied = 0;
        long lastReport = System.nanoTime();
        try (AppliedCount count = new AppliedCount(projects)) {
            while (System.nanoTime() < deadline) {
                applied = count.now();
                if (applied >= total) {
                    break;
                }
                if (System.nanoTime() - lastReport > 5_000_000_000L) {
                    System.out.printf("  ... %,d of %,d applied after %.0f s%n", applied, total, (System.nanoTime() - started) / 1e9);
                    lastReport = System.nanoTime();
                }
                Thread.sleep(100);
            }
        }
        return applied;
    }

    /** The hits the rollups (project scope) of some projects hold: one connection and one prepared query, read as often as asked. */
    private static final class AppliedCount implements AutoCloseable {

        private final Connection db;
        private final PreparedStatement query;

        AppliedCount(List<UUID> projects) throws SQLException {
            db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl());
            query = db.prepareStatement(
                    "SELECT coalesce(sum(total_events), 0) FROM traffic.traffic_days WHERE hostname = '' AND project_id = ANY(?)");
            query.setArray(1, db.createArrayOf("uuid", projects.toArray()));
        }

        long now() throws SQLException {
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }

        @Override
        public void close() throws SQLException {
            db.close();
        }
    }

    /** A hit of {@code project}; {@code visitors} counts the project's referred hits so far (for {@code sessions=demo}). */
    static String hit(UUID project, Random random, Instant now, int[] visitors) {
        boolean bot = random.nextDouble() < 0.7;
        boolean docs = random.nextBoolean();
        int p = random.nextInt(5_000);
        String path = docs ? "/docs/s" + (p % 50) + "/p" + p : "/blog/s" + (p % 50) + "/post-" + p;
        int status = random.nextDouble() < 0.02 ? 404 : 200;
        String session = SESSIONS.equals("demo")
                ? (bot ? "bot-" + random.nextInt(CRAWLER_SESSIONS) : "v-" + visitors[0]++ / 3)
                : (bot ? "bot-" : "v-") + random.nextInt(20_000);
        String at = now.minusMillis(random.nextInt(3_600_000)).truncatedTo(ChronoUnit.MILLIS).toString();
        return "{\"eventId\":\"" + eventId(random) + "\",\"projectId\":\"" + project + "\",\"source\":\"cloudflare\","
                + "\"hostname\":\"" + (docs ? "docs.bench.dev" : "bench.dev") + "\",\"path\":\"" + path + "\",\"status\":" + status
                + ",\"botName\":" + (bot ? "\"" + BOTS.get(random.nextInt(BOTS.size())) + "\"" : "null")
                + ",\"referrer\":" + (bot ? "null" : "\"https://chatgpt.com/\"")
                + ",\"sessionId\":\"" + session + "\",\"observedAt\":\"" + at + "\"}";
    }

    /** A sensor's eventId as {@link #IDS} says: random, or version 7 (the minting millisecond first, then 74 random bits). */
    static UUID eventId(Random random) {
        if (!IDS.equals("v7")) {
            return UUID.randomUUID();
        }
        long msb = (System.currentTimeMillis() << 16) | 0x7000L | (random.nextInt() & 0x0FFFL);
        long lsb = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    // ---------------------------------------------------------------- E4 latency

    private static void e4(String base, int samples, int paths, long hits) throws Exception {
        UUID project = UUID.randomUUID();
        int sections = 50;
        int perSection = Math.max(1, paths / 2 / sections);
        long seedStart = System.nanoTime();
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl()); Statement s = db.createStatement()) {
            s.execute("SET search_path TO traffic");
            // leaves: every path on every day, about hits / (90 * paths) hits each
            double perPathDay = hits / 90.0 / (2.0 * sections * perSection);
            s.execute("""
                    INSERT INTO traffic_days (project_id, hostname, prefix, day, total_events, bot_events, referral_events,
                                              sessions, bot_sessions, referral_sessions)
                    SELECT '%s', h.host, '/' || h.top || '/s' || sec || '/p' || n, current_date - d,
                           t, (t * 7) / 10, t - (t * 7) / 10, greatest(1, t / 2), greatest(1, t / 3), t / 4
                    FROM (VALUES ('docs.bench.dev', 'docs'), ('bench.dev', 'blog')) AS h(host, top),
                         generate_series(0, %d) AS sec, generate_series(0, %d) AS n, generate_series(0, 89) AS d,
                         LATERAL (SELECT floor(%f + random() + 0 * d)::bigint AS t) AS c""".formatted(project, sections - 1,
                    perSection - 1, perPathDay));
            // the ancestors: sections, the top folder, the hostname root, the project
            s.execute("""
                    INSERT INTO traffic_days (project_id, hostname, prefix, day, total_events, bot_events, referral_events,
                                              sessions, bot_sessions, referral_sessions)
                    SELECT project_id, hostname, a.prefix, day, sum(total_events), sum(bot_events), sum(referral_events),
                           sum(sessions) / 2, sum(bot_sessions) / 2, sum(referral_sessions) / 2
                    FROM traffic_days,
                         LATERAL (VALUES (substring(prefix from '^/[^/]+/[^/]+')), (substring(prefix from '^/[^/]+')), ('/')) AS a(prefix)
                    WHERE project_id = '%s'
                    GROUP BY project_id, hostname, a.prefix, day""".formatted(project));
            s.execute("""
                    INSERT INTO traffic_days (project_id, hostname, prefix, day, total_events, bot_events, referral_events,
                                              sessions, bot_sessions, referral_sessions)
                    SELECT project_id, '', '/', day, sum(total_events), sum(bot_events), sum(referral_events),
                           sum(sessions), sum(bot_sessions), sum(referral_sessions)
                    FROM traffic_days WHERE project_id = '%s' AND prefix = '/' AND hostname <> ''
                    GROUP BY project_id, day""".formatted(project));
            s.execute("INSERT INTO sensor_sources (project_id, source, last_accepted_at) VALUES ('" + project + "', 'cloudflare', now())");
            s.execute("INSERT INTO sensor_hostnames (project_id, source, hostname, last_accepted_at) VALUES ('" + project
                    + "', 'cloudflare', 'docs.bench.dev', now()), ('" + project + "', 'cloudflare', 'bench.dev', now())");
            s.execute("ANALYZE traffic_days");
            try (ResultSet rs = s.executeQuery("SELECT count(*), sum(total_events) FILTER (WHERE hostname = '') FROM traffic_days WHERE project_id = '" + project + "'")) {
                rs.next();
                System.out.printf("E4 data: %,d rollup rows for %,d hits over 90 days on %,d paths (seeded in %.0f s)%n",
                        rs.getLong(1), rs.getLong(2), 2L * sections * perSection, (System.nanoTime() - seedStart) / 1e9);
            }
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        String token = TestTokens.bearer(TestTokens.forProject(project.toString(), "traffic.read"));
        Map<String, String> queries = new java.util.LinkedHashMap<>();
        queries.put("no filter, 90 days", "?days=90");
        queries.put("domain, 90 days", "?days=90&domain=docs.bench.dev");
        queries.put("domain + pathPrefix=/docs (25,000 paths), 90 days", "?days=90&domain=docs.bench.dev&pathPrefix=/docs");
        queries.put("domain + pathPrefix=/docs/s7, 30 days", "?days=30&domain=docs.bench.dev&pathPrefix=/docs/s7");
        queries.put("domain + pathPrefix=<one page>, 90 days", "?days=90&domain=docs.bench.dev&pathPrefix=/docs/s7/p7");
        // warm-up: the JIT compiles the request path in its first thousands of requests
        for (int i = 0; i < 600; i++) {
            for (String query : queries.values()) {
                total(http, base, project, token, query);
            }
        }
        for (Map.Entry<String, String> query : queries.entrySet()) {
            List<Long> times = new ArrayList<>();
            long value = 0;
            for (int i = 0; i < samples; i++) {
                long t0 = System.nanoTime();
                value = total(http, base, project, token, query.getValue());
                times.add(System.nanoTime() - t0);
            }
            Collections.sort(times);
            System.out.printf("E4 %-52s p50 %6.2f ms  p99 %6.2f ms  (totalEvents %,d)%n", query.getKey(),
                    pct(times, 50) / 1e6, pct(times, 99) / 1e6, value);
        }
    }

    static long total(HttpClient http, String base, UUID project, String token, String query) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v2/projects/" + project
                + "/traffic/summary" + query)).header("Authorization", token).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("E4 answered " + response.statusCode() + ": " + response.body());
        }
        Matcher m = TOTAL.matcher(response.body());
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static long pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
