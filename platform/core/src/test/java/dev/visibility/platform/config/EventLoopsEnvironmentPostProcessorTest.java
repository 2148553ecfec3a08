package dev.visibility.platform.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;

/** Every service gets one event loop per processor unless the command line says otherwise. */
class EventLoopsEnvironmentPostProcessorTest {

    private String before;

    @BeforeEach
    void keep() {
        before = System.getProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT);
        } else {
            System.setProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT, before);
        }
    }

    @Test
    void oneLoopPerProcessorWhenNothingIsSet() {
        System.clearProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT);
        new EventLoopsEnvironmentPostProcessor().postProcessEnvironment(new StandardEnvironment(), new SpringApplication());
        assertThat(System.getProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT))
                .isEqualTo(String.valueOf(Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void aCountFromTheCommandLineIsKept() {
        System.setProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT, "7");
        new EventLoopsEnvironmentPostProcessor().postProcessEnvironment(new StandardEnvironment(), new SpringApplication());
        assertThat(System.getProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT)).isEqualTo("7");
    }

    @Test
    void springBootRunsItBeforeTheContext() {
        System.clearProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT);
        SpringApplication application = new SpringApplication(Empty.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.isActive()).isTrue();
            assertThat(System.getProperty(EventLoopsEnvironmentPostProcessor.IO_WORKER_COUNT))
                    .isEqualTo(String.valueOf(Runtime.getRuntime().availableProcessors()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}
