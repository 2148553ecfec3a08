package dev.visibility.platform.web.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.InvalidRequest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Issue 15, hostile input: what every request must be before a handler sees it (spec 7 error shape). */
class RequestGuardTest {

    private static final long LIMIT = 1024 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().addModule(new ControlCharactersModule()).build();

    @Test
    void anUnknownMethodIs405WithAllow() {
        for (String method : List.of("FOO", "TRACE", "CONNECT", "get")) {
            ApiException refusal = RequestGuard.refusal(method, Map.of(), -1, LIMIT);
            assertThat(refusal.status()).isEqualTo(405);
            assertThat(refusal.body().error()).isEqualTo("method_not_allowed");
            assertThat(refusal.headers()).containsEntry("Allow", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
        }
        assertThat(RequestGuard.refusal("PATCH", Map.of("days", List.of("30")), 10, LIMIT)).isNull();
    }

    @Test
    void aControlCharacterInAQueryValueIs400NamingTheParameter() {
        for (String value : List.of("a\u0000b", "\n", "x\u001f", "\u007f", "\u0085")) {
            ApiException refusal = RequestGuard.refusal("GET", Map.of("platform", List.of("ok", value)), -1, LIMIT);
            assertThat(refusal.status()).isEqualTo(400);
            assertThat(refusal.body().error()).isEqualTo("invalid_request");
            assertThat(refusal.body().message()).contains("'platform'");
        }
        assertThat(RequestGuard.refusal("GET", Map.of("p\u0000", List.of("x")), -1, LIMIT).status()).isEqualTo(400);
        assertThat(RequestGuard.refusal("GET", Map.of("platform", List.of("été €")), -1, LIMIT)).isNull();
    }

    @Test
    void aDeclaredBodyOverTheLimitIs413() {
        ApiException refusal = RequestGuard.refusal("POST", Map.of(), LIMIT + 1, LIMIT);
        assertThat(refusal.status()).isEqualTo(413);
        assertThat(refusal.body().error()).isEqualTo("payload_too_large");
        assertThat(RequestGuard.refusal("POST", Map.of(), LIMIT, LIMIT)).isNull();
    }

    record Body(String title, List<String> channels) {
    }

    @Test
    void controlCharactersInJsonTextAre400NamingTheField() {
        assertThat(refusalOf(() -> JSON.readValue("{\"title\":\"a\\u0000b\",\"channels\":[]}", Body.class)))
                .isEqualTo("Field 'title' must not contain control characters");
        assertThat(refusalOf(() -> JSON.readValue("{\"title\":\"a\",\"channels\":[\"web\",\"\\u0007\"]}", Body.class)))
                .isEqualTo("Field 'channels.1' must not contain control characters");
        assertThat(refusalOf(() -> JSON.readValue("{\"a\":{\"b\":[1,\"\\u0000\"]}}", JsonNode.class)))
                .isEqualTo("Field 'a.b.1' must not contain control characters");
        // a member name with one names its object; the first text with one is named
        assertThat(refusalOf(() -> JSON.readValue("{\"a\":[{\"ok\":\"x\",\"b\\u0001\":1}]}", JsonNode.class)))
                .isEqualTo("Field 'a.0' must not contain control characters");
        assertThat(refusalOf(() -> JSON.readValue("{\"a\":\"x\",\"b\":[\"\\u0002\"],\"c\":\"\\u0003\"}", JsonNode.class)))
                .isEqualTo("Field 'b.0' must not contain control characters");
        // tab, line feed and carriage return are text
        Body body = JSON.readValue("{\"title\":\"line\\nnext\\tcol\\r\",\"channels\":[\"web\"]}", Body.class);
        assertThat(body.title()).isEqualTo("line\nnext\tcol\r");
        assertThat(JSON.readValue("{\"a\":\"x\\ny\"}", JsonNode.class).get("a").asString()).isEqualTo("x\ny");
    }

    @Test
    void nettyAnswersWithoutABodyGetTheErrorBody() {
        EmbeddedChannel channel = new EmbeddedChannel(new NettyErrorBodies());
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/x"));
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE));
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.status().code()).isEqualTo(431);
        assertThat(answer.headers().get("Content-Type")).isEqualTo("application/json");
        @SuppressWarnings("unchecked")
        Map<String, Object> body = JSON.readValue(answer.content().toString(StandardCharsets.UTF_8), Map.class);
        assertThat(body).containsEntry("error", "headers_too_large").containsEntry("status", 431);
        assertThat(answer.headers().getInt("Content-Length")).isEqualTo(answer.content().readableBytes());
        answer.release();

        // a HEAD answer keeps no body; an answer with a body of its own is left alone
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.HEAD, "/x"));
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND));
        FullHttpResponse head = channel.readOutbound();
        assertThat(head.content().readableBytes()).isZero();
        head.release();
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/x"));
        DefaultFullHttpResponse own = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST,
                Unpooled.copiedBuffer("{\"error\":\"invalid_request\"}", StandardCharsets.UTF_8));
        own.headers().set("Content-Type", "application/json");
        channel.writeOutbound(own);
        FullHttpResponse kept = channel.readOutbound();
        assertThat(kept.content().toString(StandardCharsets.UTF_8)).isEqualTo("{\"error\":\"invalid_request\"}");
        kept.release();
        channel.finishAndReleaseAll();
    }

    private static String refusalOf(Runnable read) {
        try {
            read.run();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof InvalidRequest invalid) {
                    assertThat(invalid.status()).isEqualTo(400);
                    return invalid.body().message();
                }
            }
            throw e;
        }
        throw new AssertionError("not refused");
    }
}
