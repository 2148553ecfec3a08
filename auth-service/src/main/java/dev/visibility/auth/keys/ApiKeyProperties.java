package dev.visibility.auth.keys;

import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param prefix the service's fixed key prefix (spec 5.1): keys read {@code <prefix>_live_<64 hex>};
 *               1 to 16 lowercase letters and digits, starting with a letter
 */
@ConfigurationProperties("suite.api-keys")
public record ApiKeyProperties(String prefix) {

    private static final Pattern PREFIX = Pattern.compile("^[a-z][a-z0-9]{0,15}$");

    public ApiKeyProperties {
        prefix = prefix == null ? "svc" : prefix;
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "suite.api-keys.prefix must be 1 to 16 lowercase letters and digits, starting with a letter");
        }
    }
}
