package dev.visibility.platform.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;

import org.junit.jupiter.api.Test;

/**
 * A service that cannot be reached or goes away mid-exchange is a 503 {@code unavailable} in the error shape (spec 7:
 * never a 500 for it); any other unexpected failure stays a 500.
 */
class ErrorMapperTest {

    @Test
    void aConnectionResetOrRefusedIsUnavailable() {
        for (Throwable failure : new Throwable[] {
                new IOException("recvAddress(..) failed with error(-104): Connection reset by peer"),
                new SocketException("Connection reset"),
                new IllegalStateException("relay failed", new SocketException("Connection reset by peer")),
                new ConnectException("Connection refused")}) {
            ApiError error = ErrorMapper.map(failure);
            assertThat(error.status()).as(failure.toString()).isEqualTo(503);
            assertThat(error.body().error()).isEqualTo("unavailable");
            assertThat(error.body().message()).isEqualTo("The service is temporarily unavailable; retry later");
        }
    }

    @Test
    void anyOtherIoFailureIsAnInternalError() {
        ApiError error = ErrorMapper.map(new IOException("No space left on device"));
        assertThat(error.status()).isEqualTo(500);
        assertThat(error.body().error()).isEqualTo("internal");
    }
}
