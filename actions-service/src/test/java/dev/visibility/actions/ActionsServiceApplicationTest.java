package dev.visibility.actions;

import dev.visibility.platform.testing.ServiceSmokeTest;
import org.springframework.boot.test.context.SpringBootTest;

/** actions-service starts on the real broker and database, migrates its schema and answers in the error shape. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ActionsServiceApplicationTest extends ServiceSmokeTest {
}
