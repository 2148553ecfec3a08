package dev.visibility.platform.testapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A minimal WebFlux service that uses the platform the way every service does. */
@SpringBootApplication
public class TestApplication {
}
