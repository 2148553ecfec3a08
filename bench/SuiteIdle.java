import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The CPU a running local suite uses at rest (issue 24: at most 5 % of a core, PostgreSQL's
 * processes included), from {@code /proc}: every thread of every process that {@code ./suite}
 * started (its pid files) and the suite's PostgreSQL with its child processes, before and after a window; prints the share
 * of a core per component and the busiest threads (grouped by name without their numbers).
 *
 * <pre>
 * SUITE_STATE_DIR=/tmp/s1 java bench/SuiteIdle.java [seconds=60] [threads=15]
 * </pre>
 *
 * Run it after {@code ./suite up} and after the background class-data training has finished
 * ({@code logs/cds.log}), with nothing else using the suite. Linux only. It also prints how
 * long ago the youngest of the suite's processes started and the share of the JIT compiler threads:
 * a JVM goes on compiling what runs at rest (C1 only in the local suite) for half an hour or more
 * after its start, so figures taken at different times after an {@code up} differ by up to two points
 * (bench/ServiceStart.md, "Session 55").
 */
public class SuiteIdle {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path state = Path.of(System.getenv().getOrDefault("SUITE_STATE_DIR", ".local"));
        Path pids = state.resolve("pids");
        if (!Files.isDirectory(pids)) {
            System.err.println("no suite at " + state.toAbsolutePath() + " (set SUITE_STATE_DIR)");
            System.exit(2);
        }
        Map<String, Long> components = new TreeMap<>();
        try (Stream<Path> files = Files.list(pids)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                String name = file.getFileName().toString().replace(".pid", "");
                components.put(name, Long.parseLong(Files.readAllLines(file).get(0).trim()));
            }
        }
        System.out.printf("load average before: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.printf("the youngest of the suite's processes started %.1f min ago%n", youngestMinutes(components));
        Map<String, Long> before = snapshot(components);
        long start = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        Map<String, Long> after = snapshot(components);
        double elapsed = (System.nanoTime() - start) / 1e9;

        Map<String, Long> perComponent = new TreeMap<>();
        Map<String, Long> perThread = new HashMap<>();
        after.forEach((key, ticks) -> {
            long used = ticks - before.getOrDefault(key, 0L);
            String[] parts = key.split("\t");
            perComponent.merge(parts[0], used, Long::sum);
            perThread.merge(parts[0] + " / " + parts[2].replaceAll("[-#_ ]?\\d+$", "").replaceAll("\\d+", "N"), used, Long::sum);
        });
        long total = perComponent.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("the suite at rest over %.0f s: %.1f %% of a core%n", elapsed, percent(total, elapsed));
        perComponent.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> System.out.printf("  %-20s %5.2f %%%n", e.getKey(), percent(e.getValue(), elapsed)));
        long compilers = perThread.entrySet().stream().filter(e -> e.getKey().contains("CompilerThre"))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  of it the JIT compiler threads %.2f %%%n", percent(compilers, elapsed));
        System.out.println("busiest threads:");
        perThread.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(threads)
                .forEach(e -> System.out.printf("  %-45s %5.2f %%%n", e.getKey(), percent(e.getValue(), elapsed)));
    }

    private static double percent(long ticks, double seconds) {
        return 100.0 * ticks / TICKS_PER_SECOND / seconds;
    }

    /** CPU ticks (user + system) per "component \t tid \t thread name"; PostgreSQL's processes as one component. */
    private static Map<String, Long> snapshot(Map<String, Long> components) throws IOException {
        Map<String, Long> ticks = new LinkedHashMap<>();
        components.forEach((name, pid) -> {
            if (!"postgres".equals(name)) {
                threadsOf(pid).forEach((tid, stat) -> ticks.put(name + "\t" + tid + "\t" + stat.name(), stat.ticks()));
            }
        });
        Long postmaster = components.get("postgres");
        if (postmaster == null) {
            return ticks;
        }
        // the postmaster and its children (backends, checkpointer, WAL writer, ...)
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                Stat stat = stat(process.resolve("stat"));
                long pid = Long.parseLong(process.getFileName().toString());
                if (stat != null && (pid == postmaster || stat.parent() == postmaster)) {
                    ticks.put("postgres\t" + process.getFileName() + "\tpostgres", stat.ticks());
                }
            }
        }
        return ticks;
    }

    /** Minutes since the most recently started process of the suite (a restarted service counts from its restart). */
    private static double youngestMinutes(Map<String, Long> components) throws IOException {
        double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
        long latest = 0;
        for (long pid : components.values()) {
            Stat stat = stat(Path.of("/proc", String.valueOf(pid), "stat"));
            if (stat != null) {
                latest = Math.max(latest, stat.started());
            }
        }
        return (uptime - (double) latest / TICKS_PER_SECOND) / 60;
    }

    private static Map<String, Stat> threadsOf(long pid) {
        Map<String, Stat> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks.toList()) {
                Stat stat = stat(task.resolve("stat"));
                if (stat != null) {
                    threads.put(task.getFileName().toString(), stat);
                }
            }
        } catch (IOException gone) {
            // the process ended: nothing to count
        }
        return threads;
    }

    private record Stat(String name, long parent, long ticks, long started) {
    }

    /**
     * The name, parent pid, utime + stime and start time (clock ticks after boot) of a /proc stat file;
     * null when the process or thread is gone.
     */
    private static Stat stat(Path file) {
        try {
            String text = Files.readString(file);
            String name = text.substring(text.indexOf('(') + 1, text.lastIndexOf(')'));
            List<String> fields = List.of(text.substring(text.lastIndexOf(')') + 2).split(" "));
            return new Stat(name, Long.parseLong(fields.get(1)), Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12)),
                    Long.parseLong(fields.get(19)));
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }
}
