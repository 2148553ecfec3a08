package dev.visibility.outcomes;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** outcomes-service: Interventions, results ledger (E2), what-works (E7). */
@SpringBootApplication
public class OutcomesServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(OutcomesServiceApplication.class, args);
    }
}
