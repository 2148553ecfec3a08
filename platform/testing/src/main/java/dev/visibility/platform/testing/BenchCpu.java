package dev.visibility.platform.testing;

import java.util.HashMap;
import java.util.Map;

/**
 * For benchmarks: the CPU time this JVM and the shared embedded PostgreSQL have used so far. Unlike a
 * rate, the CPU a piece of work costs barely depends on what else runs on a shared machine.
 * PostgreSQL's share is read from {@code /proc} (Linux; 0 elsewhere).
 */
public final class BenchCpu {

    private BenchCpu() {
    }

    /**
     * CPU seconds used so far by this JVM and by the embedded PostgreSQL (its postmaster, the children
     * it reaped, and its live children): a figure that, unlike the rate, barely depends on what else
     * runs on the machine.
     */
    public static double seconds() {
        return jvmSeconds() + postgresSeconds();
    }

    public static double jvmSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    public static double postgresSeconds() {
        String url = SharedInfrastructure.jdbcUrl();
        java.util.regex.Matcher port = java.util.regex.Pattern.compile(":(\\d+)/").matcher(url);
        if (!port.find()) {
            return 0;
        }
        String portArgument = "-p\0" + port.group(1) + "\0";
        Map<Long, long[]> stats = new HashMap<>(); // pid -> ppid, utime + stime, cutime + cstime
        long postmaster = -1;
        try (java.nio.file.DirectoryStream<java.nio.file.Path> procs = java.nio.file.Files.newDirectoryStream(
                java.nio.file.Path.of("/proc"), p -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (java.nio.file.Path proc : procs) {
                try {
                    String stat = java.nio.file.Files.readString(proc.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long pid = Long.parseLong(proc.getFileName().toString());
                    stats.put(pid, new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12]),
                        Long.parseLong(f[13]) + Long.parseLong(f[14])});
                    String cmdline = java.nio.file.Files.readString(proc.resolve("cmdline"));
                    if (cmdline.contains("postgres") && cmdline.contains(portArgument)) {
                        postmaster = pid;
                    }
                } catch (java.io.IOException | RuntimeException gone) {
                    // a process that ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return 0; // no /proc: not Linux
        }
        if (postmaster < 0) {
            return 0;
        }
        long ticks = stats.get(postmaster)[1] + stats.get(postmaster)[2];
        for (long[] s : stats.values()) {
            if (s[0] == postmaster) {
                ticks += s[1];
            }
        }
        return ticks / 100.0; // USER_HZ
    }

    /**
     * {busy, total} clock ticks of the whole machine so far (the first line of {@code /proc/stat}; idle and
     * I/O wait count as not busy), {0, 0} without {@code /proc}. Two readings tell how full the machine was
     * between them: whether a phase was bound by the cores or waited on something else.
     */
    public static long[] machineTicks() {
        try {
            String[] cpu = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < cpu.length; i++) {
                total += Long.parseLong(cpu[i]);
            }
            long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
            return new long[] {total - idle, total};
        } catch (java.io.IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    /** The busy share of the machine's cores between two {@link #machineTicks()} readings (0 to 1). */
    public static double machineBusy(long[] before, long[] after) {
        long total = after[1] - before[1];
        return total <= 0 ? 0 : (double) (after[0] - before[0]) / total;
    }

    /**
     * CPU nanoseconds so far of this JVM's threads whose name (as the kernel knows it, at most 15 characters)
     * matches {@code names}, by name with digits replaced by {@code #}; from {@code /proc/self/task}, empty
     * elsewhere. This is how the collector's and the JIT compilers' threads are read, which the JVM's thread list
     * leaves out. A thread that ended takes its time with it, so a difference over a phase can only understate.
     */
    public static java.util.Map<String, Long> threadsNamed(java.util.regex.Pattern names) {
        java.util.Map<String, Long> out = new java.util.HashMap<>();
        try (java.nio.file.DirectoryStream<java.nio.file.Path> tasks =
                java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path task : tasks) {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (names.matcher(name).find()) {
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                        out.merge(name.replaceAll("\\d+", "#"), ticks * 10_000_000L, Long::sum); // USER_HZ 100
                    }
                } catch (java.io.IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (java.io.IOException | RuntimeException notLinux) {
            return out;
        }
        return out;
    }

    /**
     * The JIT compiler threads for {@link #threadsNamed}: it matches their names as the kernel has them
     * ({@code C1 CompilerThre}, {@code C2 CompilerThre}) and as {@link #threadsNamed} answers them ({@code C# CompilerThre}).
     */
    public static final java.util.regex.Pattern JIT_COMPILERS = java.util.regex.Pattern.compile("^C[12#] Compiler");

}
