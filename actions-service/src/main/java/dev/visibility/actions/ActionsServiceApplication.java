package dev.visibility.actions;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** actions-service: Actions and recommendations (E3, E6, brief, events). */
@SpringBootApplication
public class ActionsServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ActionsServiceApplication.class, args);
    }
}
