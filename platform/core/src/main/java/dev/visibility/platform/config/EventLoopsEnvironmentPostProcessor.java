package dev.visibility.platform.config;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * One Reactor Netty event loop per processor the JVM may use, instead of Reactor Netty's own
 * default of at least four. Nothing here blocks an event loop (BlockHound in the tests), so loops
 * beyond the processors only add thread switches: on two cores the gateway spent about a sixth less
 * CPU a proxied request, relative to the backend behind it, with two loops than with four
 * (bench/GatewayOverhead.md, session 18). The
 * web server, the HTTP clients and the R2DBC driver all size their loops from
 * {@code reactor.netty.ioWorkerCount}, which Reactor Netty reads once, when its loop resources are
 * first used: this runs before the application context (and so before any server, client or
 * connection pool) is made. A value given on the command line ({@code -Dreactor.netty.ioWorkerCount=N})
 * is kept.
 */
public class EventLoopsEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** Reactor Netty's system property for the number of event loops (its {@code ReactorNetty.IO_WORKER_COUNT}). */
    static final String IO_WORKER_COUNT = "reactor.netty.ioWorkerCount";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (System.getProperty(IO_WORKER_COUNT) == null) {
            System.setProperty(IO_WORKER_COUNT, String.valueOf(Runtime.getRuntime().availableProcessors()));
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
