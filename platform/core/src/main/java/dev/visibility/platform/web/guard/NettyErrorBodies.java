package dev.visibility.platform.web.guard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.ErrorMapper;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Gives the error body of spec 7 to the answers that Reactor Netty and the framework make without
 * one (issue 15): 414 for an over-long request line, 431 for oversized headers, 400 for a request
 * line or URI that cannot be parsed, a firewall's bare refusal. It sits in each connection's
 * pipeline right after the HTTP codec and rewrites only a complete answer of status 400 or above
 * that has neither a body nor a content type; answers to {@code HEAD} keep no body.
 */
public final class NettyErrorBodies extends ChannelDuplexHandler {

    public static final String NAME = "suite.errorBodies";

    private final Deque<Boolean> headRequests = new ArrayDeque<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            headRequests.addLast(HttpMethod.HEAD.equals(request.method()));
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response && response.status().code() >= 200) {
            Boolean head = headRequests.pollFirst();
            if (msg instanceof FullHttpResponse full && !Boolean.TRUE.equals(head) && bare(full)) {
                ctx.write(withBody(full), promise);
                return;
            }
        }
        super.write(ctx, msg, promise);
    }

    private static boolean bare(FullHttpResponse response) {
        return response.status().code() >= 400 && !response.content().isReadable()
                && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE);
    }

    private static FullHttpResponse withBody(FullHttpResponse response) {
        int status = response.status().code();
        byte[] body = body(status);
        FullHttpResponse replaced = response.replace(Unpooled.wrappedBuffer(body));
        response.release();
        replaced.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .remove(HttpHeaderNames.TRANSFER_ENCODING)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return replaced;
    }

    /** The error body of a status, written by hand: nothing here may fail. */
    static byte[] body(int status) {
        String json = "{\"error\":\"" + ErrorCode.forStatus(status).value() + "\",\"message\":\""
                + ErrorMapper.defaultMessage(status).replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"status\":" + status + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
