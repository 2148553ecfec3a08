package dev.visibility.agents;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** agents-service: Managed-agent runs (E8), assistant threads and handoffs (E9, E10). */
@SpringBootApplication
public class AgentsServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(AgentsServiceApplication.class, args);
    }
}
