import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The suite's memory over an hour of simulated use (issue 24: total RSS at most 3 GiB after an hour of simulated
 * traffic). Against a running {@code ./suite up}, for the given minutes:
 * <ul>
 * <li>every {@code burst} seconds, one after the other, what internal producers publish:
 * {@code ./suite simulate traffic --hits 3000}, {@code tracking-run}, {@code recommendation}, {@code agent-run} and
 * {@code measurement} (each through the same Kafka topics as the producers);</li>
 * <li>every {@code requests} seconds, every GET example of {@code credentials.json} once through the gateway, as a
 * customer's client calls them (the demo key's plan allows 300 a minute: the defaults send about 200);</li>
 * <li>every {@code reading} minutes, and once more at the end, {@code ./suite status}'s totals and its largest parts;
 * then, after three minutes at rest (the connection pools close what was opened for the last burst), a last
 * reading.</li>
 * </ul>
 * It prints each reading as it is taken, then the requests' statuses per example (some examples answer 4xx on purpose:
 * an expired link, a thread of another member, a key without the scope) and the simulations that failed.
 *
 * <pre>
 * SUITE_STATE_DIR=/tmp/s1 SUITE_PORT_OFFSET=7000 java bench/SuiteHour.java [minutes=60] [burst=40] [requests=7] [reading=5]
 * </pre>
 *
 * Run it from the repository root (it calls {@code ./suite}), a couple of minutes after {@code ./suite up}. Linux only.
 */
public class SuiteHour {

    private static final Pattern HEADER = Pattern.compile("-H \"([^\"]*)\"");
    private static final Pattern URL = Pattern.compile("\"(https?://[^\"]+)\"");
    /** A row of ./suite status: its name first, its RSS and PSS last. */
    private static final Pattern STATUS_ROW = Pattern.compile("^(\\S+)\\s+.*?(\\d+) MiB\\s+(\\d+) MiB\\s*$");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final List<List<String>> BURST = List.of(
            List.of("simulate", "traffic", "--hits", "3000"),
            List.of("simulate", "tracking-run"),
            List.of("simulate", "recommendation"),
            List.of("simulate", "agent-run"),
            List.of("simulate", "measurement"));

    record Example(String name, URI url, List<String[]> headers) {
    }

    public static void main(String[] args) throws Exception {
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        int burstSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int requestSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        double readingMinutes = args.length > 3 ? Double.parseDouble(args[3]) : 5;
        Path state = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));
        if (!Files.isRegularFile(state.resolve("credentials.json")) || !Files.isExecutable(Path.of("suite"))) {
            System.err.println("run from the repository root against a running suite (no " + state.resolve("credentials.json")
                    + "; set SUITE_STATE_DIR)");
            System.exit(2);
        }
        List<Example> examples = examples(Files.readString(state.resolve("credentials.json")));
        System.out.printf("%s: %.0f minutes; a burst of %d simulations every %d s; %d GET examples every %d s;"
                + " load average %s%n", now(), minutes, BURST.size(), burstSeconds, examples.size(), requestSeconds, load());
        System.out.println("reading  minute  total RSS / PSS MiB  postgres RSS / PSS  largest JVM (RSS)  requests  bursts");

        long start = System.nanoTime();
        long end = start + (long) (minutes * 60e9);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Map<Integer, Long>> statuses = new TreeMap<>();
        AtomicLong requests = new AtomicLong();
        AtomicLong bursts = new AtomicLong();
        List<String> failures = new ArrayList<>();

        Thread producer = new Thread(() -> {
            long next = System.nanoTime();
            while (next < end) {
                for (List<String> command : BURST) {
                    String failure = suite(command, Duration.ofMinutes(3)).failure();
                    if (failure != null) {
                        synchronized (failures) {
                            failures.add(now() + " ./suite " + String.join(" ", command) + ": " + failure);
                        }
                    }
                }
                bursts.incrementAndGet();
                next += burstSeconds * 1_000_000_000L;
                sleepUntil(next);
            }
        });
        Thread customer = new Thread(() -> {
            long next = System.nanoTime();
            while (next < end) {
                for (Example example : examples) {
                    int status = get(client, example);
                    requests.incrementAndGet();
                    synchronized (statuses) {
                        statuses.computeIfAbsent(example.name(), n -> new TreeMap<>()).merge(status, 1L, Long::sum);
                    }
                }
                next += requestSeconds * 1_000_000_000L;
                sleepUntil(next);
            }
        });
        producer.start();
        customer.start();

        long nextReading = start;
        while (System.nanoTime() < end) {
            if (System.nanoTime() >= nextReading) {
                reading(start, requests.get(), bursts.get());
                nextReading += (long) (readingMinutes * 60e9);
            }
            sleepUntil(Math.min(nextReading, end));
        }
        producer.join();
        customer.join();
        System.out.println("-- the end of the last burst");
        reading(start, requests.get(), bursts.get());
        sleepUntil(System.nanoTime() + 180_000_000_000L);
        System.out.println("-- three minutes at rest");
        reading(start, requests.get(), bursts.get());

        System.out.println("requests by example and status:");
        statuses.forEach((name, byStatus) -> System.out.printf("  %-28s %s%n", name, byStatus));
        System.out.println(failures.isEmpty() ? "every simulation succeeded" : "simulations that failed:");
        failures.forEach(f -> System.out.println("  " + f));
        System.out.printf("load average at the end: %s%n", load());
    }

    /** The GET examples of credentials.json: name, URL and headers of each curl command without -X or -d. */
    static List<Example> examples(String credentials) {
        int at = credentials.indexOf("\"examples\"");
        if (at < 0) {
            throw new IllegalStateException("credentials.json has no examples");
        }
        List<Example> examples = new ArrayList<>();
        Matcher entry = Pattern.compile("\"([A-Za-z0-9_]+)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(credentials.substring(at));
        while (entry.find()) {
            String command = entry.group(2).replace("\\\"", "\"").replace("\\\\", "\\");
            if (!command.startsWith("curl ") || command.contains(" -X ") || command.contains(" -d ")) {
                continue;
            }
            Matcher url = URL.matcher(command);
            String last = null;
            while (url.find()) {
                last = url.group(1);
            }
            if (last == null) {
                continue;
            }
            List<String[]> headers = new ArrayList<>();
            Matcher header = HEADER.matcher(command);
            while (header.find()) {
                String[] pair = header.group(1).split(":\\s*", 2);
                if (pair.length == 2) {
                    headers.add(pair);
                }
            }
            examples.add(new Example(entry.group(1), URI.create(last), headers));
        }
        if (examples.isEmpty()) {
            throw new IllegalStateException("credentials.json has no GET examples");
        }
        return examples;
    }

    /** One request; its status, or 0 when it got no answer within 30 s. */
    static int get(HttpClient client, Example example) {
        HttpRequest.Builder request = HttpRequest.newBuilder(example.url()).timeout(Duration.ofSeconds(30)).GET();
        example.headers().forEach(h -> request.header(h[0], h[1]));
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** What {@code ./suite <command>} printed, and why it failed (null when it exited 0). */
    record Run(String output, String failure) {
    }

    /**
     * {@code ./suite <command>} with the caller's environment and no standard input. Its output goes to a file, so
     * that the time-out holds even when the command hangs with its output open.
     */
    static Run suite(List<String> command, Duration timeout) {
        List<String> line = new ArrayList<>(List.of("./suite"));
        line.addAll(command);
        Path output = null;
        try {
            output = Files.createTempFile("suite-hour", ".out");
            Process process = new ProcessBuilder(line).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Run("", "no answer within " + timeout.toSeconds() + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                String tail = text.trim();
                return new Run(text, "exit " + process.exitValue() + ": " + tail.substring(Math.max(0, tail.length() - 300)));
            }
            return new Run(text, null);
        } catch (IOException e) {
            return new Run("", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Run("", "interrupted");
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }

    /** One line from ./suite status: its totals, PostgreSQL's, and the part with the largest RSS. */
    static void reading(long start, long requests, long bursts) {
        Run status = suite(List.of("status"), Duration.ofSeconds(60));
        String total = "?", postgres = "?", largest = "?";
        long largestRss = -1;
        for (String text : status.output().split("\n")) {
            Matcher m = STATUS_ROW.matcher(text);
            if (!m.matches()) {
                continue;
            }
            String pair = m.group(2) + " / " + m.group(3);
            switch (m.group(1)) {
                case "total" -> total = pair;
                case "postgres" -> postgres = pair;
                default -> {
                    long rss = Long.parseLong(m.group(2));
                    if (rss > largestRss) {
                        largestRss = rss;
                        largest = m.group(1) + " " + rss;
                    }
                }
            }
        }
        System.out.printf("%s  %6.1f  %-19s  %-18s  %-17s  %8d  %6d%s%n", now(), (System.nanoTime() - start) / 60e9, total,
                postgres, largest, requests, bursts, status.failure() == null ? "" : "  (" + status.failure() + ")");
    }

    static void sleepUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            try {
                Thread.sleep(Math.max(1, Math.min(wait / 1_000_000, 1000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static String now() {
        return LocalTime.now(ZoneOffset.UTC).format(CLOCK);
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
