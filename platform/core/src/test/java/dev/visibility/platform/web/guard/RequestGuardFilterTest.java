package dev.visibility.platform.web.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.error.servlet.ServletErrorWriter;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * The servlet guard reads the query the way Tomcat will, but refuses what Tomcat's parameter parsing
 * would throw on later (a 500 from Spring Security's sign-in pages, found by HostileInputSystemTest):
 * malformed escapes and bytes that are not UTF-8 (spec 7: a 400 in the error shape instead).
 */
class RequestGuardFilterTest {

    @Test
    void validUtf8EscapesAndRawCharactersDecode() {
        assertThat(RequestGuardFilter.decodeStrictly("%C3%A9%E2%82%AC")).isEqualTo("é€");
        assertThat(RequestGuardFilter.decodeStrictly("a+b-c_d.e~f")).isEqualTo("a+b-c_d.e~f");
        assertThat(RequestGuardFilter.decode("days=30&status=done&status=%41")).isEqualTo(Map.of(
                "days", List.of("30"), "status", List.of("done", "A")));
    }

    @Test
    void bytesThatAreNotUtf8AndMalformedEscapesAreRefused() {
        for (String bad : List.of("%FF%FE", "%C3", "%E2%82", "%ED%A0%80", "%4", "%zz", "abc%")) {
            assertThatThrownBy(() -> RequestGuardFilter.decodeStrictly(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> RequestGuardFilter.decode("result=%FF%FE")).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A refusal is written once the body has been read (up to the limit), so that Tomcat's close after the 400 cannot
     * reach the gateway while it still sends the body (a lost answer, a 503 to the caller: HostileInputSystemTest).
     */
    @Test
    void aRefusalIsWrittenAfterTheBodyWasReadAndALargerBodyIsNotRead() throws Exception {
        RequestGuardFilter filter = new RequestGuardFilter(new ServletErrorWriter(JsonMapper.builder().build()), 64 * 1024);
        AtomicInteger readBeforeAnswer = new AtomicInteger(-1);
        byte[] body = new byte[18_001];
        CountingRequest request = new CountingRequest(body);
        request.setMethod("POST");
        request.setRequestURI("/logout");
        request.setQueryString("detailLevel=%FF%FE");
        MockHttpServletResponse response = new MockHttpServletResponse() {
            @Override
            public void setStatus(int status) {
                readBeforeAnswer.compareAndSet(-1, request.read);
                super.setStatus(status);
            }
        };
        filter.doFilter(request, response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentAsString()).contains("\"error\":\"invalid_request\"");
        assertThat(readBeforeAnswer.get()).isEqualTo(body.length);

        CountingRequest large = new CountingRequest(new byte[100 * 1024]);
        large.setMethod("POST");
        large.setRequestURI("/logout");
        large.setQueryString("detailLevel=%FF%FE");
        MockHttpServletResponse refused = new MockHttpServletResponse();
        filter.doFilter(large, refused, new MockFilterChain());
        assertThat(refused.getStatus()).isEqualTo(400);
        assertThat(large.read).isZero();
    }

    /** A request whose body counts the bytes read from it. */
    private static final class CountingRequest extends MockHttpServletRequest {
        private final ByteArrayInputStream in;
        int read;

        CountingRequest(byte[] body) {
            this.in = new ByteArrayInputStream(body);
            setContentType("multipart/form-data; boundary=xyz");
            addHeader("Content-Length", body.length);
        }

        @Override
        public long getContentLengthLong() {
            return Long.parseLong(getHeader("Content-Length"));
        }

        @Override
        public ServletInputStream getInputStream() {
            return new ServletInputStream() {
                @Override
                public int read() throws IOException {
                    int b = in.read();
                    read += b < 0 ? 0 : 1;
                    return b;
                }

                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    int n = in.read(buffer, offset, length);
                    read += Math.max(n, 0);
                    return n;
                }

                @Override
                public boolean isFinished() {
                    return in.available() <= 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                }
            };
        }
    }
}
