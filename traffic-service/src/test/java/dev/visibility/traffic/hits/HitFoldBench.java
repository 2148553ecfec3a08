package dev.visibility.traffic.hits;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.traffic.config.TrafficProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import org.reactivestreams.Publisher;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The ingesting JVM's own work on a batch of hits, without the broker, the database or the records'
 * reading: {@link HitBatch#of}, {@link SessionKeys#of}, {@link HitBatch#fold} (with stored last days
 * made up from the keys: about five in eight found, one in sixteen of those a day older, so that it
 * moves) and the write statement's parameters ({@code HitIngestion.statement}, bound but never run),
 * on one thread, over batches of 5,000 hits made as bench/TrafficBench.sh makes them (12 projects,
 * two hostnames, 5,000 pages three segments deep, random sessions: 20,000 a kind). Prints the CPU
 * time a hit of this thread and of the whole process (the garbage collector's included). The
 * end-to-end benchmark's figures spread by ±10 % from run to run on this machine; this one by a few.
 *
 * <pre>java -cp &lt;bench/TrafficBench.sh's classpath&gt; dev.visibility.traffic.hits.HitFoldBench [seconds=20] [warm-up seconds=15]</pre>
 */
public final class HitFoldBench {

    private static final List<String> BOTS = List.of("GPTBot", "ClaudeBot", "PerplexityBot", "Google-Extended");

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Random random = new Random(42);
        List<UUID> projects = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            projects.add(new UUID(random.nextLong(), random.nextLong()));
        }
        Instant now = Instant.now();
        List<List<TrafficHitObserved>> batches = new ArrayList<>();
        for (int b = 0; b < 40; b++) {
            List<TrafficHitObserved> batch = new ArrayList<>(5_000);
            for (int i = 0; i < 5_000; i++) {
                batch.add(hit(projects.get(random.nextInt(projects.size())), random, now));
            }
            batches.add(batch);
        }
        HitIngestion ingestion = new HitIngestion(DatabaseClient.create(new NoConnections()), Clock.systemUTC(),
                new TrafficProperties(null, null, null, null, null, null, null, null, null, null), new SimpleMeterRegistry());
        Method statement = HitIngestion.class.getDeclaredMethod("statement", HitBatch.class);
        statement.setAccessible(true);

        run(batches, ingestion, statement, now, warmup);
        var threads = ManagementFactory.getThreadMXBean();
        var process = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long thread0 = threads.getCurrentThreadCpuTime();
        long process0 = process.getProcessCpuTime();
        long hits = run(batches, ingestion, statement, now, seconds);
        double thread = (threads.getCurrentThreadCpuTime() - thread0) / 1_000.0 / hits;
        double all = (process.getProcessCpuTime() - process0) / 1_000.0 / hits;
        System.out.printf("HIT FOLD: %,d hits in %d s: %.2f µs of this thread's CPU a hit, %.2f µs of the process' (GC included)%n",
                hits, seconds, thread, all);
    }

    private static long run(List<List<TrafficHitObserved>> batches, HitIngestion ingestion, Method statement, Instant now,
            int seconds) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long hits = 0;
        long sink = 0;
        while (System.nanoTime() < end) {
            for (List<TrafficHitObserved> hits1 : batches) {
                HitBatch batch = HitBatch.of(hits1, now);
                SessionKeys keys = SessionKeys.of(batch);
                sink += batch.fold(keys, stored(keys));
                sink += statement.invoke(ingestion, batch).hashCode();
                hits += hits1.size();
            }
        }
        if (sink == 42) {
            System.out.println();
        }
        return hits;
    }

    /** Stored last days made up from each key: five in eight found, a sixteenth of those a day older than the batch's. */
    private static int[][] stored(SessionKeys keys) {
        int[][] stored = new int[keys.sorted.length][];
        for (int i = 0; i < stored.length; i++) {
            long bits = keys.sorted[i].getLeastSignificantBits();
            if ((bits & 7) < 5) {
                int shift = (bits >>> 3 & 15) == 0 ? 1 : 0;
                int[] days = keys.days[i];
                stored[i] = new int[] {days[0] - shift, days[1] == HitBatch.NONE ? HitBatch.NONE : days[1] - shift,
                        days[2] == HitBatch.NONE ? HitBatch.NONE : days[2] - shift};
            }
        }
        return stored;
    }

    private static TrafficHitObserved hit(UUID project, Random random, Instant now) {
        boolean bot = random.nextDouble() < 0.7;
        boolean docs = random.nextBoolean();
        int p = random.nextInt(5_000);
        String path = docs ? "/docs/s" + (p % 50) + "/p" + p : "/blog/s" + (p % 50) + "/post-" + p;
        int status = random.nextDouble() < 0.02 ? 404 : 200;
        String session = (bot ? "bot-" : "v-") + random.nextInt(20_000);
        Instant at = now.minusMillis(random.nextInt(3_600_000));
        return new TrafficHitObserved(new UUID(random.nextLong(), random.nextLong()), project, "cloudflare",
                docs ? "docs.bench.dev" : "bench.dev", path, status, bot ? BOTS.get(random.nextInt(BOTS.size())) : null,
                bot ? null : "https://chatgpt.com/", session, at);
    }

    /** A connection factory that is never asked for a connection: the statements are bound, never run. */
    private static final class NoConnections implements ConnectionFactory {

        @Override
        public Publisher<? extends io.r2dbc.spi.Connection> create() {
            return Mono.error(new IllegalStateException("HitFoldBench runs no statement"));
        }

        @Override
        public ConnectionFactoryMetadata getMetadata() {
            return () -> "PostgreSQL";
        }
    }
}
