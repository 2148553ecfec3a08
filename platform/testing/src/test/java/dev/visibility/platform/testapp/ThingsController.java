package dev.visibility.platform.testapp;

import java.util.List;
import java.util.Map;

import dev.visibility.platform.error.NotFound;
import dev.visibility.platform.query.QueryParams;
import dev.visibility.platform.security.reactive.CurrentCaller;
import dev.visibility.platform.web.Envelope;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
class ThingsController {

    record NewThing(String name, int count) {
    }

    @GetMapping("/api/v2/projects/{projectId}/things")
    Mono<Envelope<Map<String, Object>>> list(@PathVariable String projectId,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam MultiValueMap<String, String> query) {
        int days = QueryParams.of(query).intOneOf("days", List.of(30, 90), 30);
        return CurrentCaller.get().map(caller -> Envelope.of(
                Map.of("days", days, "limit", limit == null ? 50 : limit, "scopes", caller.scopes()), projectId));
    }

    @PostMapping(path = "/api/v2/projects/{projectId}/things", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Envelope<NewThing> create(@PathVariable String projectId, @RequestBody NewThing thing) {
        return Envelope.of(thing, projectId);
    }

    @GetMapping("/internal/v1/ping")
    Map<String, String> internalPing() {
        return Map.of("pong", "true");
    }

    @GetMapping("/api/v2/projects/{projectId}/things/missing")
    Mono<Object> missing() {
        return Mono.error(new NotFound("No thing with this id"));
    }

    @GetMapping("/api/v2/projects/{projectId}/things/broken")
    Mono<Object> broken() {
        return Mono.error(new IllegalStateException("SELECT secret FROM things WHERE password = 'hunter2'"));
    }
}
