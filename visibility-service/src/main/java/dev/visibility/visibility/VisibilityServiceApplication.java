package dev.visibility.visibility;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** visibility-service: Tracking runs, visibility summary, retained responses (E12), agent-picks runs (E1). */
@SpringBootApplication
public class VisibilityServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(VisibilityServiceApplication.class, args);
    }
}
