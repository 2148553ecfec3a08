package dev.visibility.platform.web.guard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/** {@link RequestGuard} on Spring MVC (auth-service), right after the canonical-path check. */
public class RequestGuardFilter extends OncePerRequestFilter {

    private final ServletErrorWriter writer;
    private final long maxBodyBytes;

    public RequestGuardFilter(ServletErrorWriter writer, long maxBodyBytes) {
        this.writer = writer;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Map<String, List<String>> query;
        try {
            query = decode(request.getQueryString());
        } catch (IllegalArgumentException e) {
            refuse(request, response, new InvalidRequest("The query string is not validly percent-encoded UTF-8"));
            return;
        }
        ApiException refusal = RequestGuard.refusal(request.getMethod(), query, request.getContentLengthLong(), maxBodyBytes);
        if (refusal != null) {
            refuse(request, response, refusal);
            return;
        }
        chain.doFilter(request, response);
    }

    /**
     * Writes the refusal once the request's body (up to the body limit) has been read. Tomcat closes the connection
     * after a 400 ({@code Connection: close}); answered before the body was read, the close could reach the gateway
     * while it was still sending the body, which then lost the answer and told its caller 503 (seen under load in
     * {@code HostileInputSystemTest}). A body declared over the limit is not read (the connection closes after the
     * refusal all the same).
     */
    private void refuse(HttpServletRequest request, HttpServletResponse response, ApiException refusal) throws IOException {
        long length = request.getContentLengthLong();
        if (length != 0 && length <= maxBodyBytes) {
            try {
                InputStream body = request.getInputStream();
                byte[] discard = new byte[8192];
                long read = 0;
                for (int n; read <= maxBodyBytes && (n = body.read(discard)) >= 0; ) {
                    read += n;
                }
            } catch (IOException e) {
                // the caller went away or sent less than it announced: the refusal is written all the same
            }
        }
        writer.write(response, refusal);
    }

    static Map<String, List<String>> decode(String queryString) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (queryString == null || queryString.isEmpty()) {
            return query;
        }
        for (String pair : queryString.split("&")) {
            int equals = pair.indexOf('=');
            String name = decodeStrictly(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decodeStrictly(pair.substring(equals + 1));
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return query;
    }

    /**
     * Percent-decodes as UTF-8 and refuses (IllegalArgumentException) a malformed escape or bytes that
     * are not UTF-8: Tomcat's own parameter parsing throws on those when a filter or controller reads a
     * parameter (Spring Security's sign-in pages do), which would be a 500 instead of a 400.
     */
    static String decodeStrictly(String encoded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                int high = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 1), 16) : -1;
                int low = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 2), 16) : -1;
                if (high < 0 || low < 0) {
                    throw new IllegalArgumentException("Invalid percent-escape");
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("Not UTF-8", e);
        }
    }
}
