package dev.visibility.platform.consumer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.events.TrafficHitQuickReader;
import jakarta.validation.Validation;

/**
 * What reading one {@code traffic.hits} record costs a consumer thread: the platform's full reading
 * (JSON tree, the topic's schema, the mapping, validate()) against the same with the quick reader first
 * ({@link TrafficHitQuickReader}), on hits as the traffic benchmark's sensors write them. One thread, no
 * broker or database; alternated rounds after a warm-up; prints the thread's CPU a record.
 *
 * <pre>
 * mvn -q -o test-compile dependency:build-classpath -pl platform/core -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/pcp.txt
 * java -cp "platform/core/target/test-classes:platform/core/target/classes:$(cat /tmp/pcp.txt)" \
 *     dev.visibility.platform.consumer.RecordReadingBench [records=200000] [rounds=5]
 * </pre>
 * Figures: bench/TrafficBench.md, session 33.
 */
public final class RecordReadingBench {

    public static void main(String[] args) {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        var mapper = TrafficHitQuickReaderTest.consumersMapper();
        var validator = Validation.buildDefaultValidatorFactory().getValidator();
        RecordReader<TrafficHitObserved> full = new RecordReader<>(Topics.TRAFFIC_HITS, TrafficHitObserved.class, mapper,
                validator, new TopicSchemas());
        RecordReader<TrafficHitObserved> quick = new RecordReader<>(Topics.TRAFFIC_HITS, TrafficHitObserved.class, mapper,
                validator, new TopicSchemas(), new TrafficHitQuickReader());
        String[] values = hits(records, new Random(42));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // warm-up: both readings, until the JIT has compiled them
        for (int i = 0; i < 3; i++) {
            read(full, values);
            read(quick, values);
        }
        for (int round = 1; round <= rounds; round++) {
            for (RecordReader<TrafficHitObserved> reader : java.util.List.of(full, quick)) {
                long cpu = threads.getCurrentThreadCpuTime();
                long sum = read(reader, values);
                double micros = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / records;
                System.out.printf("round %d, %-34s %.2f µs of CPU a record (%d)%n", round,
                        reader == full ? "full reading:" : "quick reader, then validate():", micros, sum);
            }
        }
    }

    private static long read(RecordReader<TrafficHitObserved> reader, String[] values) {
        long sum = 0;
        for (String value : values) {
            sum += reader.read(value).status();
        }
        return sum;
    }

    /** Hits as bench/TrafficBench.sh's sensors write them (TrafficBench.hit). */
    static String[] hits(int count, Random random) {
        String[] values = new String[count];
        Instant now = Instant.now();
        for (int i = 0; i < count; i++) {
            boolean bot = random.nextDouble() < 0.7;
            boolean docs = random.nextBoolean();
            int p = random.nextInt(5_000);
            String path = docs ? "/docs/s" + (p % 50) + "/p" + p : "/blog/s" + (p % 50) + "/post-" + p;
            String at = now.minusMillis(random.nextInt(3_600_000)).truncatedTo(ChronoUnit.MILLIS).toString();
            values[i] = "{\"eventId\":\"" + UUID.randomUUID() + "\",\"projectId\":\"" + new UUID(random.nextLong(), random.nextLong())
                    + "\",\"source\":\"cloudflare\",\"hostname\":\"" + (docs ? "docs.bench.dev" : "bench.dev") + "\",\"path\":\"" + path
                    + "\",\"status\":" + (random.nextDouble() < 0.02 ? 404 : 200) + ",\"botName\":" + (bot ? "\"GPTBot\"" : "null")
                    + ",\"referrer\":" + (bot ? "null" : "\"https://chatgpt.com/\"") + ",\"sessionId\":\"" + (bot ? "bot-" : "v-")
                    + random.nextInt(20_000) + "\",\"observedAt\":\"" + at + "\"}";
        }
        return values;
    }
}
