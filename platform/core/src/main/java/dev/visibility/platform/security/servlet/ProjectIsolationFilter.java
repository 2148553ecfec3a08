package dev.visibility.platform.security.servlet;

import java.io.IOException;

import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.error.servlet.ServletErrorWriter;
import dev.visibility.platform.security.InternalTokenClaims;
import dev.visibility.platform.security.ProjectPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/** The servlet twin of {@code ProjectIsolationWebFilter}: another project's path is a 404. */
public class ProjectIsolationFilter extends OncePerRequestFilter {

    private final ServletErrorWriter writer;

    public ProjectIsolationFilter(ServletErrorWriter writer) {
        this.writer = writer;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String pathProject = ProjectPaths.projectIdOf(request.getRequestURI().substring(request.getContextPath().length()));
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (pathProject != null && !(auth instanceof JwtAuthenticationToken jwt
                && pathProject.equals(String.valueOf(jwt.getToken().getClaims().get(InternalTokenClaims.PROJECT))))) {
            writer.write(response, new NotFound("No resource exists at this path"));
            return;
        }
        chain.doFilter(request, response);
    }
}
