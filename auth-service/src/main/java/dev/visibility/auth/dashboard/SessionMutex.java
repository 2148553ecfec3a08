package dev.visibility.auth.dashboard;

import org.springframework.boot.web.servlet.ServletListenerRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.util.HttpSessionMutexListener;

/**
 * Puts a mutex in every new session ({@link HttpSessionMutexListener}), which
 * {@link org.springframework.web.util.WebUtils#getSessionMutex} returns: {@link SessionApiKeys}
 * locks on it so that concurrent requests of one session create one key per project, not one each.
 */
@Configuration(proxyBeanMethods = false)
class SessionMutex {

    @Bean
    ServletListenerRegistrationBean<HttpSessionMutexListener> sessionMutexListener() {
        return new ServletListenerRegistrationBean<>(new HttpSessionMutexListener());
    }
}
