package dev.visibility.platform.cursor;

import java.nio.charset.StandardCharsets;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

@AutoConfiguration
@EnableConfigurationProperties(CursorProperties.class)
@ConditionalOnProperty(prefix = "suite.cursor", name = "secret")
public class CursorAutoConfiguration {

    @Bean
    CursorCodec cursorCodec(CursorProperties properties) {
        return new CursorCodec(properties.secret().getBytes(StandardCharsets.UTF_8));
    }
}
