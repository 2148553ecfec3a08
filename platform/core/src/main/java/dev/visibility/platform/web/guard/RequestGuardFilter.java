package dev.visibility.platform.web.guard;

import java.io.IOException;
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
import org.springframework.web.util.UriUtils;

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
            writer.write(response, new InvalidRequest("The query string is not validly percent-encoded"));
            return;
        }
        ApiException refusal = RequestGuard.refusal(request.getMethod(), query, request.getContentLengthLong(), maxBodyBytes);
        if (refusal != null) {
            writer.write(response, refusal);
            return;
        }
        chain.doFilter(request, response);
    }

    static Map<String, List<String>> decode(String queryString) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (queryString == null || queryString.isEmpty()) {
            return query;
        }
        for (String pair : queryString.split("&")) {
            int equals = pair.indexOf('=');
            String name = UriUtils.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : UriUtils.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return query;
    }
}
