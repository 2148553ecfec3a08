package dev.visibility.auth.errors;

import java.util.Map;

import dev.visibility.platform.web.Envelope;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A test-only Spring MVC endpoint, to provoke each framework-made error on the servlet stack. */
@RestController
class ProbeController {

    record Probe(String name, int count) {
    }

    @GetMapping("/api/v2/projects/{projectId}/probe")
    Envelope<Map<String, Object>> read(@PathVariable String projectId, @RequestParam(name = "limit", required = false) Integer limit) {
        return Envelope.of(Map.of("limit", limit == null ? 50 : limit), projectId);
    }

    @PostMapping(path = "/api/v2/projects/{projectId}/probe", consumes = MediaType.APPLICATION_JSON_VALUE)
    Envelope<Probe> write(@PathVariable String projectId, @RequestBody Probe probe) {
        return Envelope.of(probe, projectId);
    }

    @GetMapping("/api/v2/projects/{projectId}/probe/broken")
    Object broken() {
        throw new IllegalStateException("SELECT api_key_hash FROM keys -- internal detail");
    }
}
