package dev.visibility.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpResponseDecoderSpec;

/** The proxy's response decoder hands on what a read gave, and keeps what was set on it before (issue 24). */
class ProxiedBodyChunksTest {

    @Test
    void theDecoderKeepsItsSettingsAndCutsNoBodyInto8KbPieces() {
        HttpClient configured = HttpClient.create()
                .httpResponseDecoder(spec -> spec.maxHeaderSize(16_384).maxInitialLineLength(8_192).validateHeaders(true));
        assertThat(configured.configuration().decoder().maxChunkSize()).isEqualTo(8_192);

        HttpResponseDecoderSpec decoder = new ProxiedBodyChunks().customize(configured).configuration().decoder();

        assertThat(decoder.maxChunkSize()).isEqualTo(ProxiedBodyChunks.MAX_CHUNK).isGreaterThan(64 * 1024);
        assertThat(decoder.maxHeaderSize()).isEqualTo(16_384);
        assertThat(decoder.maxInitialLineLength()).isEqualTo(8_192);
        assertThat(decoder.validateHeaders()).isTrue();
    }
}
