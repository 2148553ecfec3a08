package dev.visibility.systemtests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What an MCP client and a person's browser do, without a browser: GETs, form and JSON POSTs that
 * keep the cookies the server sets and never follow redirects, so each step can be asserted.
 */
final class Browser {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"|value=\"([^\"]+)\"\\s+name=\"_csrf\"");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String origin;
    private final Map<String, String> cookies = new LinkedHashMap<>();

    Browser(String origin) {
        this.origin = origin;
    }

    record Page(int status, java.net.http.HttpHeaders headers, String body) {

        String location() {
            return headers.firstValue("Location").orElse(null);
        }

        String csrf() {
            Matcher matcher = CSRF.matcher(body);
            if (!matcher.find()) {
                throw new AssertionError("no CSRF token on the page: " + body);
            }
            return matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        }

        Map<String, Object> json() {
            return dev.visibility.platform.testing.Http.parse(body);
        }
    }

    Page get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).GET());
    }

    Page get(String pathOrUrl, String bearer) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).header("Authorization", "Bearer " + bearer).GET());
    }

    Page post(String pathOrUrl, Map<String, ?> form) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
    }

    Page postJson(String pathOrUrl, String json) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    static String encode(Map<String, ?> form) {
        return form.entrySet().stream().flatMap(entry -> {
            List<?> values = entry.getValue() instanceof List<?> list ? list : List.of(entry.getValue());
            return values.stream().map(value -> URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        }).collect(Collectors.joining("&"));
    }

    static Map<String, String> query(String url) {
        Map<String, String> values = new LinkedHashMap<>();
        String raw = URI.create(url).getRawQuery();
        if (raw == null) {
            return values;
        }
        for (String pair : raw.split("&")) {
            String[] parts = pair.split("=", 2);
            values.put(URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
                    URLDecoder.decode(parts.length > 1 ? parts[1] : "", StandardCharsets.UTF_8));
        }
        return values;
    }

    private URI uri(String pathOrUrl) {
        return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : origin + pathOrUrl);
    }

    private Page send(HttpRequest.Builder request) {
        request.timeout(Duration.ofSeconds(30));
        if (!cookies.isEmpty()) {
            request.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; ")));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            for (String setCookie : response.headers().allValues("Set-Cookie")) {
                String pair = setCookie.split(";", 2)[0];
                int equals = pair.indexOf('=');
                String value = pair.substring(equals + 1).trim();
                if (value.isEmpty() || setCookie.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
                    cookies.remove(pair.substring(0, equals).trim());
                } else {
                    cookies.put(pair.substring(0, equals).trim(), value);
                }
            }
            return new Page(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
