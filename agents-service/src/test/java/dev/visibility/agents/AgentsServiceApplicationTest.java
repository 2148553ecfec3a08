package dev.visibility.agents;

import dev.visibility.platform.testing.ServiceSmokeTest;
import org.springframework.boot.test.context.SpringBootTest;

/** agents-service starts on the real broker and database, migrates its schema and answers in the error shape. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AgentsServiceApplicationTest extends ServiceSmokeTest {
}
