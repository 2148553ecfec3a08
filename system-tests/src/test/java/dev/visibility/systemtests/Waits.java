package dev.visibility.systemtests;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.awaitility.Awaitility;

/** Waiting for effects that cross process boundaries asynchronously: Awaitility, with what is awaited named. */
public final class Waits {

    private Waits() {
    }

    /** Polls {@code value} until {@code done} holds for it, and answers that value; fails after {@code within}. */
    public static <T> T until(String what, Duration within, Supplier<T> value, Predicate<T> done) {
        return Awaitility.await(what).atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(value::get, done::test);
    }
}
