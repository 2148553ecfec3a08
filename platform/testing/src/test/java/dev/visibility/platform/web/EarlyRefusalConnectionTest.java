package dev.visibility.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.KeepAliveRequests;
import dev.visibility.platform.testing.KeepAliveRequests.Response;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A WebFlux application (the gateway and every Reactor Netty service) that refuses a request before reading its body
 * (the canonical-path check, the request guard: spec 7) answers at once and keeps the connection: Reactor Netty reads
 * and drops the rest of the body, and the next request on the same connection is answered. Tomcat closes after such a
 * 400 instead, which is why the servlet guard reads the body first (RequestGuardFilterTest); this test keeps the
 * WebFlux side from needing the same, and would fail if a Reactor Netty upgrade closed the connection with the rest
 * of the body unread (a close that meets the body turns into a reset, and the caller may lose the answer).
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EarlyRefusalConnectionTest {

    private static final int BODY = 50_000;
    private static final int SENT_FIRST = 100;

    @LocalServerPort
    int port;

    @Test
    void aNonCanonicalPathIsRefusedBeforeTheBodyAndTheConnectionServesTheNextRequest() throws IOException {
        refusedThenReused("/api/v2/projects/5b0c6f57-6a1f-4d43-9b8e-4a0d6f1c2e11/../things", "\"reason\":\"non_canonical_path\"");
    }

    @Test
    void aQueryWithAControlCharacterIsRefusedBeforeTheBodyAndTheConnectionServesTheNextRequest() throws IOException {
        refusedThenReused("/api/v2/projects/5b0c6f57-6a1f-4d43-9b8e-4a0d6f1c2e11/things?name=a%07b",
                "must not contain control characters");
    }

    private void refusedThenReused(String target, String expectedInBody) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST " + target + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + BODY + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(spaces(SENT_FIRST));
            out.flush();

            Response refusal = KeepAliveRequests.readResponse(in);
            assertThat(refusal.status()).as("answered before the body was sent").isEqualTo(400);
            assertThat(refusal.body()).contains(expectedInBody).contains("\"status\":400");
            assertThat(refusal.close()).as("Connection: close").isFalse();

            out.write(spaces(BODY - SENT_FIRST));
            out.write("GET /api/v2/projects/5b0c6f57-6a1f-4d43-9b8e-4a0d6f1c2e11/things HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Response next = KeepAliveRequests.readResponse(in);
            assertThat(next.status()).as("the next request on the same connection (no credential: spec 2.2)").isEqualTo(401);
            assertThat(next.body()).contains("\"error\":\"unauthorized\"");
        }
    }

    private static byte[] spaces(int count) {
        byte[] bytes = new byte[count];
        Arrays.fill(bytes, (byte) ' ');
        return bytes;
    }
}
