package dev.visibility.auth.support;

import java.io.IOException;
import java.net.URI;
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
 * What a browser does with auth-service's pages, without a browser: GETs and form POSTs that keep
 * the cookies the server sets (whatever their Secure flag: the tests speak plain HTTP to the
 * service) and never follow redirects, so that each step can be asserted.
 */
public class FormClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"|value=\"([^\"]+)\"\\s+name=\"_csrf\"");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String baseUrl;
    private final Map<String, String> cookies = new LinkedHashMap<>();
    private final Map<String, String> extraHeaders = new LinkedHashMap<>();
    private String publicOrigin;

    public FormClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public record Page(int status, java.net.http.HttpHeaders headers, String body) {

        public String location() {
            return headers.firstValue("Location").orElse(null);
        }

        public List<String> setCookies() {
            return headers.allValues("Set-Cookie");
        }

        /** The CSRF token of the page's forms. */
        public String csrf() {
            Matcher matcher = CSRF.matcher(body);
            if (!matcher.find()) {
                throw new AssertionError("no CSRF token on the page: " + body);
            }
            return matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        }
    }

    /** Sends this header on every request (e.g. the gateway's X-Forwarded-* headers). */
    public FormClient header(String name, String value) {
        extraHeaders.put(name, value);
        return this;
    }

    /** Absolute URLs of this origin (the gateway's, in redirects and metadata) go to the service itself. */
    public FormClient publicOrigin(String origin) {
        this.publicOrigin = origin;
        return this;
    }

    public Page postJson(String pathOrUrl, String json) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public String cookie(String name) {
        return cookies.get(name);
    }

    public Page get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).GET());
    }

    public Page post(String pathOrUrl, Map<String, ?> form) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
    }

    /** A form value may be a String or a List of Strings (repeated parameter). */
    public static String encode(Map<String, ?> form) {
        return form.entrySet().stream().flatMap(entry -> {
            List<?> values = entry.getValue() instanceof List<?> list ? list : List.of(entry.getValue());
            return values.stream().map(value -> URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        }).collect(Collectors.joining("&"));
    }

    private URI uri(String pathOrUrl) {
        if (publicOrigin != null && pathOrUrl.startsWith(publicOrigin + "/")) {
            pathOrUrl = pathOrUrl.substring(publicOrigin.length());
        }
        return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : baseUrl + pathOrUrl);
    }

    private Page send(HttpRequest.Builder request) {
        request.timeout(Duration.ofSeconds(30));
        extraHeaders.forEach(request::header);
        if (!cookies.isEmpty()) {
            request.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; ")));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            for (String setCookie : response.headers().allValues("Set-Cookie")) {
                String pair = setCookie.split(";", 2)[0];
                int equals = pair.indexOf('=');
                String name = pair.substring(0, equals).trim();
                String value = pair.substring(equals + 1).trim();
                if (value.isEmpty() || setCookie.toLowerCase().contains("max-age=0")) {
                    cookies.remove(name);
                } else {
                    cookies.put(name, value);
                }
            }
            return new Page(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
