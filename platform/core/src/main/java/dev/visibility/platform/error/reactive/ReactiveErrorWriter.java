package dev.visibility.platform.error.reactive;

import dev.visibility.platform.error.ApiError;
import dev.visibility.platform.error.ErrorMapper;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * Writes an error body onto a reactive response. Headers set earlier (rate-limit headers, CORS)
 * are kept, so that they appear on errors too.
 */
public final class ReactiveErrorWriter {

    private final ObjectMapper mapper;

    public ReactiveErrorWriter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public Mono<Void> write(ServerHttpResponse response, Throwable failure) {
        return write(response, ErrorMapper.map(failure));
    }

    public Mono<Void> write(ServerHttpResponse response, ApiError error) {
        if (response.isCommitted()) {
            return Mono.empty();
        }
        byte[] bytes = body(error);
        response.setStatusCode(HttpStatusCode.valueOf(error.status()));
        HttpHeaders headers = response.getHeaders();
        headers.remove(HttpHeaders.CONTENT_LENGTH);
        headers.remove(HttpHeaders.CONTENT_ENCODING);
        headers.remove(HttpHeaders.TRANSFER_ENCODING);
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setCacheControl("no-store");
        error.headers().forEach(headers::set);
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }

    /** The JSON of an error's body, as {@link #write} sends it (for a writer below Spring's response types). */
    public byte[] body(ApiError error) {
        return mapper.writeValueAsBytes(error.body());
    }
}
