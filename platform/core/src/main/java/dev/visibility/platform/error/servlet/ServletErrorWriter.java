package dev.visibility.platform.error.servlet;

import java.io.IOException;

import dev.visibility.platform.error.ApiError;
import dev.visibility.platform.error.ErrorMapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import tools.jackson.databind.ObjectMapper;

/** Writes an error body from servlet filters (security entry points), outside Spring MVC. */
public final class ServletErrorWriter {

    private final ObjectMapper mapper;

    public ServletErrorWriter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public void write(HttpServletResponse response, Throwable failure) throws IOException {
        write(response, ErrorMapper.map(failure));
    }

    public void write(HttpServletResponse response, ApiError error) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(error.status());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setHeader("Cache-Control", "no-store");
        error.headers().forEach(response::setHeader);
        response.getOutputStream().write(mapper.writeValueAsBytes(error.body()));
    }
}
