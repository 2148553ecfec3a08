package dev.visibility.platform.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * BlockHound is on in every test JVM with platform-testing (installed by {@link BlockHoundExtension}
 * before the first test class): a blocking call on a non-blocking thread fails where it happens and
 * is recorded for the extension; the same call on a thread that may block is left alone.
 */
class BlockingCallsTest {

    @Test
    void aBlockingCallOnANonBlockingThreadIsCaughtAndRecorded() {
        assertThat(BlockingCalls.installed()).isTrue();
        Mono<Void> sleeping = Mono.<Void>fromRunnable(BlockingCallsTest::sleepBriefly).subscribeOn(Schedulers.parallel());
        assertThatThrownBy(() -> sleeping.block(Duration.ofSeconds(5)))
                .hasCauseInstanceOf(BlockingOperationError.class).hasMessageContaining("java.lang.Thread.sleep");
        // drained here, so that the extension does not fail this test for the call it provoked
        List<String> found = BlockingCalls.drain();
        assertThat(found).singleElement().satisfies(call -> assertThat(call)
                .startsWith("on thread parallel-").contains("java.lang.Thread.sleep"));
    }

    @Test
    void theSameCallOnAThreadThatMayBlockIsAllowed() {
        Mono.<Void>fromRunnable(BlockingCallsTest::sleepBriefly).subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(5));
        assertThat(BlockingCalls.drain()).isEmpty();
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
