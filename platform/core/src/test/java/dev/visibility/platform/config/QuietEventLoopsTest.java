package dev.visibility.platform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;

/**
 * An idle Reactor Netty event loop wakes once a second by itself (Netty 4.2), and not at all once
 * {@link QuietEventLoops} has scheduled its task an hour ahead. Counted from outside: the loop threads' voluntary
 * context switches in {@code /proc} (Linux) over a window with nothing to do, once they are asleep. If a Netty
 * upgrade stops the wake-ups, the first test fails, and the task is no longer needed.
 */
class QuietEventLoopsTest {

    private static final Duration WINDOW = Duration.ofMillis(2_500);

    private final LoopResources loops = LoopResources.create("quiet-test", 1, true);

    @BeforeEach
    void linux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
    }

    @AfterEach
    void dispose() {
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block();
        HttpResources.disposeLoopsAndConnectionsLater(Duration.ZERO, Duration.ofSeconds(5)).block();
    }

    @Test
    void anIdleLoopWakesEverySecondUntilItIsQuieted() throws Exception {
        EventLoopGroup group = loops.onServer(LoopResources.DEFAULT_NATIVE);
        String name = group.next().submit(() -> Thread.currentThread().getName()).get();
        List<Path> loop = tasksNamed(name);
        assertThat(loop).as("the thread %s in /proc/self/task", name).hasSize(1);

        assertThat(wakeUpsOver(loop)).as("wake-ups of the idle loop in %s ms, as Netty leaves it", WINDOW.toMillis())
                .isGreaterThanOrEqualTo(2);

        QuietEventLoops.Loops.quiet(group);
        // the scheduling wakes the loop once; after a task run behind it, the loop waits with the new deadline
        group.next().submit(() -> { }).get();
        assertThat(wakeUpsOver(loop)).as("wake-ups of the quieted idle loop in %s ms", WINDOW.toMillis()).isZero();
    }

    @Test
    void aReactiveApplicationThatIsReadyHasItsHttpLoopsQuieted() throws Exception {
        ready(Map.of());
        List<Path> http = tasksNamed("reactor-http-epoll");
        assertThat(http).as("Reactor Netty's HTTP loops, started by the quieting").isNotEmpty();
        assertThat(wakeUpsOver(http)).as("wake-ups of the idle HTTP loops in %s ms", WINDOW.toMillis()).isZero();
    }

    @Test
    void theSwitchLeavesTheLoopsAlone() throws Exception {
        ready(Map.of(QuietEventLoops.PROPERTY, "false"));
        assertThat(tasksNamed("reactor-http-epoll")).as("no HTTP loop started").isEmpty();
    }

    private static void ready(Map<String, Object> properties) {
        SpringApplication application = new SpringApplication();
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
            context.refresh();
            new QuietEventLoops().onApplicationEvent(new ApplicationReadyEvent(application, new String[0], context, Duration.ZERO));
        }
    }

    private static long wakeUpsOver(List<Path> threads) throws InterruptedException {
        for (Path thread : threads) {
            asleep(thread);
        }
        long before = voluntarySwitches(threads);
        // the window is what is measured (wake-ups of threads with nothing to do), not a wait for a condition
        Thread.sleep(WINDOW.toMillis());
        return voluntarySwitches(threads) - before;
    }

    /** Waits (at most 5 s) until the thread is asleep, so that its going to sleep is not counted as a wake-up. */
    private static void asleep(Path thread) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!read(thread.resolve("status")).lines().anyMatch(line -> line.startsWith("State:") && line.contains("S (sleeping)"))) {
            assertThat(System.nanoTime()).as("the thread %s asleep within 5 s", thread).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /** This JVM's threads whose names start so (the kernel keeps the first 15 characters of a name). */
    private static List<Path> tasksNamed(String prefix) throws IOException {
        String comm = prefix.length() > 15 ? prefix.substring(0, 15) : prefix;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.filter(task -> read(task.resolve("comm")).strip().startsWith(comm)).toList();
        }
    }

    private static long voluntarySwitches(List<Path> threads) {
        return threads.stream().mapToLong(thread -> read(thread.resolve("status")).lines()
                .filter(line -> line.startsWith("voluntary_ctxt_switches:"))
                .mapToLong(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).strip())).sum()).sum();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
