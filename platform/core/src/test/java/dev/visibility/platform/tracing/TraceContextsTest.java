package dev.visibility.platform.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which {@code traceparent} values are taken (W3C Trace Context 3.2, version 00) and which are ignored. */
class TraceContextsTest {

    private static final String VALID = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @Test
    void aVersion00ValueIsTakenWithItsTraceId() {
        assertThat(TraceContexts.valid(VALID)).isEqualTo(VALID);
        assertThat(TraceContexts.traceId(VALID)).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        RecordHeaders headers = new RecordHeaders();
        headers.add(TraceContexts.TRACEPARENT, VALID.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(TraceContexts.traceparent(headers)).isEqualTo(VALID);
        assertThat(TraceContexts.valid("00-ffffffffffffffffffffffffffffffff-0000000000000000-00"))
                .isEqualTo("00-ffffffffffffffffffffffffffffffff-0000000000000000-00");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "00",
        // upper-case hex, another version, a missing or moved dash, a character that is not hex
        "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "0a-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331_01",
        "00-0af7651916cd43dd8448eb211c80319-cb7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333z-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0/",
        // one character too few or too many
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-011",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01 "
    })
    void anythingElseIsIgnored(String value) {
        assertThat(TraceContexts.valid(value)).isNull();
        assertThat(TraceContexts.traceId(value)).isNull();
        RecordHeaders headers = new RecordHeaders();
        headers.add(TraceContexts.TRACEPARENT, value.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(TraceContexts.traceparent(headers)).isNull();
    }

    @Test
    void noValueIsIgnored() {
        assertThat(TraceContexts.valid(null)).isNull();
        assertThat(TraceContexts.traceparent(null)).isNull();
        assertThat(TraceContexts.traceparent(new RecordHeaders())).isNull();
    }
}
