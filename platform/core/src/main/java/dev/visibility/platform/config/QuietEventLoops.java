package dev.visibility.platform.config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ClassUtils;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpResources;

/**
 * Lets an idle Reactor Netty event loop sleep until it has something to do. Netty 4.2's event loops wake once a
 * second when no task is scheduled on them (its {@code SingleThreadEventExecutor.deadlineNanos()} answers "in one
 * second" for an empty schedule, a purge interval that Netty 4.1's epoll loop had dropped): two loops for the web
 * server and its clients and two for the R2DBC driver wake each service four times a second at rest, for nothing
 * (bench/ServiceStart.md, session 54: with this and two like it the services' wake-ups at rest fell by a third, and
 * their CPU by about half a point of a core, on a machine with page-table isolation). A task scheduled an
 * hour ahead on every loop gives the loop that deadline instead; it does nothing when it runs, and a loop with I/O or
 * tasks of its own wakes for them as before (the earliest deadline decides).
 *
 * <p>Once the application is ready: the loops of Reactor Netty's global HTTP resources in a reactive web
 * application (server, and the clients colocated with it), and those of its global TCP resources when an R2DBC
 * {@code ConnectionFactory} is in the context (the PostgreSQL driver's connections). A loop whose thread had not
 * started yet starts, and then sleeps. {@code suite.event-loops.quiet=false} leaves the loops as Netty has them.
 * Registered in {@code META-INF/spring.factories}, so that the services' Spring AOT bean definitions do not decide
 * it.
 */
public class QuietEventLoops implements ApplicationListener<ApplicationReadyEvent> {

    static final String PROPERTY = "suite.event-loops.quiet";

    /** How far ahead the do-nothing task is scheduled (and then again, each time it has run). */
    static final Duration AHEAD = Duration.ofHours(1);

    private static final String HTTP_RESOURCES = "reactor.netty.http.HttpResources";
    private static final String TCP_RESOURCES = "reactor.netty.tcp.TcpResources";
    private static final String CONNECTION_FACTORY = "io.r2dbc.spi.ConnectionFactory";

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        ApplicationContext context = event.getApplicationContext();
        if (!context.getEnvironment().getProperty(PROPERTY, Boolean.class, true)) {
            return;
        }
        ClassLoader classLoader = context.getClassLoader();
        // Reactor Netty's classes are touched only where they are known to be there (a servlet service may have no
        // reactor-netty-http)
        if (event.getSpringApplication().getWebApplicationType() == WebApplicationType.REACTIVE
                && ClassUtils.isPresent(HTTP_RESOURCES, classLoader)) {
            Loops.http();
        }
        if (ClassUtils.isPresent(CONNECTION_FACTORY, classLoader) && ClassUtils.isPresent(TCP_RESOURCES, classLoader)
                && context.getBeanNamesForType(ClassUtils.resolveClassName(CONNECTION_FACTORY, classLoader)).length > 0) {
            Loops.tcp();
        }
    }

    /** The loops themselves, in a class of their own that is loaded only when Reactor Netty is present. */
    static final class Loops {

        private Loops() {
        }

        static void http() {
            LoopResources http = HttpResources.get();
            quiet(http.onServer(LoopResources.DEFAULT_NATIVE));
            quiet(http.onClient(LoopResources.DEFAULT_NATIVE));
        }

        static void tcp() {
            quiet(TcpResources.get().onClient(LoopResources.DEFAULT_NATIVE));
        }

        /**
         * Schedules the do-nothing task on every loop of the group (a loop shared by several applications in one JVM,
         * as in the tests, gets one from each: no harm, each runs once an hour).
         */
        static void quiet(EventLoopGroup group) {
            for (EventExecutor loop : group) {
                if (!loop.isShuttingDown()) {
                    loop.scheduleAtFixedRate(Loops::nothing, AHEAD.toMillis(), AHEAD.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }

        private static void nothing() {
            // its deadline is what matters: the loop's wait for I/O ends by then, not a second from now
        }
    }
}
