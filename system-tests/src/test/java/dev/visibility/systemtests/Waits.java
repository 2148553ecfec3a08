package dev.visibility.systemtests;

import java.time.Duration;
import java.util.function.Supplier;

/** Polling with a deadline, for effects that cross process boundaries asynchronously. */
public final class Waits {

    private Waits() {
    }

    /** Polls {@code value} until {@code done} holds for it, and answers that value. */
    public static <T> T until(String what, Duration within, Supplier<T> value, java.util.function.Predicate<T> done) {
        long deadline = System.nanoTime() + within.toNanos();
        T last = value.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + within + " waiting until " + what + "; last seen: " + last);
            }
            sleep(100);
            last = value.get();
        }
        return last;
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
