package dev.visibility.auth;

import dev.visibility.platform.testing.ServiceSmokeTest;
import org.springframework.boot.test.context.SpringBootTest;

/** auth-service starts on the real broker and database, migrates its schema and answers in the error shape. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AuthServiceApplicationTest extends ServiceSmokeTest {
}
