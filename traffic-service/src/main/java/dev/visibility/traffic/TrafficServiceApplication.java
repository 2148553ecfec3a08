package dev.visibility.traffic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** traffic-service: Crawler and referral traffic (E4), adoption metrics (E5), 404 demand (E11). */
@SpringBootApplication
public class TrafficServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(TrafficServiceApplication.class, args);
    }
}
