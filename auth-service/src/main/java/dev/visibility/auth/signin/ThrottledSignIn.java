package dev.visibility.auth.signin;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;

/**
 * Email and password sign-in with {@link SignInThrottle} in front: a throttled email is refused
 * before its password is checked; every failure counts; a success clears the count. Whatever
 * failed (unknown email, wrong password, no password set), the answer is one
 * {@link BadCredentialsException}, so the page shows one generic message.
 */
class ThrottledSignIn implements AuthenticationProvider {

    /** The email has failed too often lately; the page says so (it tells nothing about the account). */
    static final class Throttled extends AuthenticationException {
        Throttled() {
            super("throttled");
        }
    }

    private final AuthenticationProvider passwords;
    private final SignInThrottle throttle;

    ThrottledSignIn(AuthenticationProvider passwords, SignInThrottle throttle) {
        this.passwords = passwords;
        this.throttle = throttle;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String email = String.valueOf(authentication.getPrincipal());
        if (throttle.throttled(email)) {
            throw new Throttled();
        }
        try {
            Authentication result = passwords.authenticate(authentication);
            throttle.succeeded(email);
            return result;
        } catch (AuthenticationException e) {
            throttle.failed(email);
            throw new BadCredentialsException("bad credentials");
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
