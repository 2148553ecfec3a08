package dev.visibility.platform.security.servlet;

import java.io.IOException;

import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.security.ProjectPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/** The servlet twin of {@code CanonicalPathWebFilter}: a path not in canonical form is a 400. */
public class CanonicalPathFilter extends OncePerRequestFilter {

    private final ServletErrorWriter writer;

    public CanonicalPathFilter(ServletErrorWriter writer) {
        this.writer = writer;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String problem = ProjectPaths.nonCanonical(request.getRequestURI());
        if (problem != null) {
            writer.write(response, new InvalidRequest(problem, "non_canonical_path"));
            return;
        }
        chain.doFilter(request, response);
    }
}
