package dev.visibility.gateway.routing;

import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpResponseDecoderSpec;

/**
 * A service's answer is passed on in the pieces the connection reads, not in 8 KB ones (issue 24).
 *
 * <p>Netty's HTTP decoder cuts a body into pieces of at most its {@code maxChunkSize}, 8,192 bytes by Reactor
 * Netty's default. Each piece then went through the proxy's whole path on its own: out of the client connection,
 * through Spring Cloud Gateway's response filter and into a write and flush to the caller: an E3 page of 100 actions
 * with their context (72-371 KB) was 9-46 of them. With requests alternating between two gateways, a 72 KB page took
 * 0.4 ms less at p50 (bench/GatewayOverhead.md, session 49). A piece is a slice of the buffer a read filled (at most
 * 64 KB by Netty's adaptive allocator), not a copy, so a larger bound holds no more memory; the body still streams
 * (an MCP event stream passes each event as it arrives, {@code ProxiedHeadersTest}).
 *
 * <p>{@link HttpClient#httpResponseDecoder} starts from a fresh specification, so what Spring Cloud Gateway set on
 * the decoder before ({@code max-header-size}, {@code max-initial-line-length}) is carried over.
 */
@Component
public class ProxiedBodyChunks implements HttpClientCustomizer {

    /** The largest piece of a body handed on at once: more than a read gives. */
    static final int MAX_CHUNK = 1024 * 1024;

    @Override
    public HttpClient customize(HttpClient client) {
        HttpResponseDecoderSpec configured = client.configuration().decoder();
        return client.httpResponseDecoder(spec -> spec
                .maxInitialLineLength(configured.maxInitialLineLength())
                .maxHeaderSize(configured.maxHeaderSize())
                .validateHeaders(configured.validateHeaders())
                .initialBufferSize(configured.initialBufferSize())
                .allowDuplicateContentLengths(configured.allowDuplicateContentLengths())
                .allowPartialChunks(configured.allowPartialChunks())
                .h2cMaxContentLength(configured.h2cMaxContentLength())
                .maxDecompressionBufferSize(configured.maxDecompressionBufferSize())
                .maxChunkSize(MAX_CHUNK));
    }
}
