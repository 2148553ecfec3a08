package dev.visibility.auth.web;

import dev.visibility.platform.error.Unauthorized;
import dev.visibility.platform.security.Caller;
import dev.visibility.platform.security.InternalTokenClaims;
import org.springframework.core.MethodParameter;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Lets a handler take the {@link Caller} of the verified internal token as a parameter, the
 * servlet counterpart of the platform's reactive {@code CurrentCaller}.
 */
public class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return Caller.class.equals(parameter.getParameterType());
    }

    @Override
    public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication instanceof JwtAuthenticationToken jwt) {
            return InternalTokenClaims.toCaller(jwt.getToken().getClaims());
        }
        // the platform's filter chain lets no unauthenticated request reach a handler that asks for a caller
        throw new Unauthorized();
    }
}
