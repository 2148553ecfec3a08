package dev.visibility.webhook;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** webhook-service: Webhook subscriptions (E13-E16) and signed delivery. */
@SpringBootApplication
public class WebhookServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebhookServiceApplication.class, args);
    }
}
