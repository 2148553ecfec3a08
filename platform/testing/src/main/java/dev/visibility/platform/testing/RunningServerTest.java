package dev.visibility.platform.testing;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of a test against the real server of a {@code @SpringBootTest(webEnvironment = RANDOM_PORT)}
 * context: its {@link #port} and a {@link #client} of it ({@link Http#client}), made anew for each test.
 */
public abstract class RunningServerTest {

    @LocalServerPort
    protected int port;

    protected WebTestClient client;

    @BeforeEach
    void createServerClient() {
        client = Http.client(port);
    }
}
