package dev.visibility.platform.cursor;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** @param secret the HMAC key of paging cursors, shared by every replica of a service (at least 32 bytes) */
@ConfigurationProperties("suite.cursor")
public record CursorProperties(String secret) {
}
