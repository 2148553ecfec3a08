package dev.visibility.platform.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * BlockHound in every test JVM that has platform-testing (STYLE.md "Reactive discipline": nothing
 * blocks a Netty thread). Installed once, before the first test class, by {@link BlockHoundExtension};
 * from then on a blocking call (I/O, sleeping, waiting on a lock or a future) on a non-blocking thread
 * (a Netty event loop, Reactor's parallel scheduler) throws {@link BlockingOperationError} where it
 * happens, as BlockHound does, and is recorded here with its thread and stack, so that the test during
 * which it happened fails even when the error was swallowed by whatever called it.
 *
 * <p>The integrations on the class path (Reactor's, Netty's, Spring's) are loaded, plus
 * {@link Allowances}: JDK and library internals that are proven not to block, never our own code.
 * The JVM needs {@code -XX:+AllowRedefinitionToAddDeleteMethods} (root pom, surefire argLine) on JDK
 * 13 and later; {@code -Dsuite.blockhound=false} leaves BlockHound out (to compare a run without it).
 */
public final class BlockingCalls {

    /** The system property that turns BlockHound off when {@code false}. */
    public static final String ENABLED_PROPERTY = "suite.blockhound";

    private static final Queue<String> FOUND = new ConcurrentLinkedQueue<>();
    private static boolean installed;

    private BlockingCalls() {
    }

    /** Installs BlockHound for this JVM, once; does nothing when {@code -Dsuite.blockhound=false}. */
    public static synchronized void install() {
        if (installed || "false".equals(System.getProperty(ENABLED_PROPERTY))) {
            return;
        }
        BlockHound.builder()
                .loadIntegrations(new Allowances())
                .blockingMethodCallback(method -> {
                    BlockingOperationError error = new BlockingOperationError(method);
                    StringWriter stack = new StringWriter();
                    error.printStackTrace(new PrintWriter(stack));
                    FOUND.add("on thread " + Thread.currentThread().getName() + ": " + stack);
                    throw error;
                })
                .install();
        installed = true;
    }

    public static synchronized boolean installed() {
        return installed;
    }

    /** The blocking calls recorded since the last call, each with its thread and stack; clears them. */
    public static List<String> drain() {
        List<String> found = new ArrayList<>();
        for (String call = FOUND.poll(); call != null; call = FOUND.poll()) {
            found.add(call);
        }
        return found;
    }

    /**
     * Calls that BlockHound sees as blocking but that do not block a thread in any way that matters,
     * each with the reason. Only JDK and library internals belong here.
     */
    static final class Allowances implements BlockHoundIntegration {

        @Override
        public void applyTo(BlockHound.Builder builder) {
            // SecureRandom.nextBytes with the default NativePRNG (UUID.randomUUID, token ids) reads
            // /dev/urandom through a small buffer; /dev/urandom never blocks. generateSeed, which reads
            // /dev/random, stays disallowed.
            builder.allowBlockingCallsInside("sun.security.provider.NativePRNG$RandomIO", "implNextBytes");
            // zstd-jni extracts and loads its native library once per JVM, in the static initializer of
            // Netty's Zstd class (first compressed HTTP answer): a read of a jar on local disk, never again
            builder.allowBlockingCallsInside("com.github.luben.zstd.util.Native", "load");
            // Netty 4.2's adaptive allocator grows a group of magazines under a StampedLock that event loops
            // share; the lock guards a few field updates, so a loop that finds it taken parks for
            // microseconds (seen once, an R2DBC event loop reading a PostgreSQL answer)
            builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines");
            // Jackson builds the deserializer of a type the first time it reads one, under a lock of its
            // deserializer cache, then keeps it; a second event loop reading the same type at that moment
            // parks for the building (CPU only, once per type and mapper). Seen with two PATCH bodies of
            // the same record arriving at once on a fresh service (actions-service ActionListPagesTest)
            builder.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache", "_createAndCacheValueDeserializer");
        }
    }
}
