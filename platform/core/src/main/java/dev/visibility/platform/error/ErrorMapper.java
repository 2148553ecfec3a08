package dev.visibility.platform.error;

import java.io.IOException;
import java.net.ConnectException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.core.codec.DecodingException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.validation.BindException;
import org.springframework.validation.FieldError;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.ServerWebInputException;

import tools.jackson.core.JacksonException;

/**
 * Turns any exception into the error body of spec 7, with messages written for API users.
 * Framework-made errors (malformed JSON, unsupported media type, wrong method, unknown path, a
 * value of the wrong type) get a message of ours: the framework's own text can name classes.
 * Anything unexpected is a 500 whose body says nothing of its cause; the cause is logged here.
 */
public final class ErrorMapper {

    private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

    private ErrorMapper() {
    }

    public static ApiError map(Throwable failure) {
        if (failure instanceof ApiException api) {
            return new ApiError(api.status(), api.body(), api.headers());
        }
        // an ApiException thrown while a body was read (a deserializer's refusal) arrives wrapped
        ApiException wrapped = find(failure, ApiException.class);
        if (wrapped != null) {
            return new ApiError(wrapped.status(), wrapped.body(), wrapped.headers());
        }
        if (failure instanceof AuthenticationException) {
            return simple(401, Unauthorized.MESSAGE);
        }
        if (failure instanceof AccessDeniedException) {
            return simple(403, "The API key lacks the scope this endpoint needs");
        }
        ApiError input = inputError(failure);
        if (input != null) {
            return input;
        }
        if (failure instanceof ErrorResponse response) {
            int status = response.getStatusCode().value();
            if (status >= 500) {
                log.warn("Request failed with status {}", status, failure);
            }
            return new ApiError(status, ErrorBody.of(ErrorCode.forStatus(status), status, defaultMessage(status)),
                    passOnHeaders(response.getHeaders()));
        }
        if (causedBy(failure, ConnectException.class) || causedBy(failure, TimeoutException.class)
                || causeNamed(failure, "ConnectTimeoutException") || causeNamed(failure, "PrematureCloseException")
                || connectionReset(failure)) {
            log.warn("Upstream unavailable: {}", failure.toString());
            return simple(503, defaultMessage(503));
        }
        log.error("Unexpected failure", failure);
        return simple(500, defaultMessage(500));
    }

    /** 400s made by the framework while reading parameters and bodies. */
    private static ApiError inputError(Throwable failure) {
        if (causeNamed(failure, "DataBufferLimitException") || causeNamed(failure, "MaxUploadSizeExceededException")) {
            return simple(413, "The request body is too large");
        }
        // Tomcat's parser of the query string and form bodies refuses a parameter it cannot read (one without a
        // name, "&=x") on the first getParameter, wherever that is called (a handler's binding, Spring Security's
        // CSRF check): the caller's input, not a failure of ours
        if (causeOfClass(failure, "org.apache.tomcat.util.http.InvalidParameterException")) {
            return simple(400, "The query string or form body has a parameter that cannot be read");
        }
        if (failure instanceof BindException bind && bind.getFieldError() != null) {
            FieldError field = bind.getFieldError();
            return simple(400, "Field '" + field.getField() + "' is invalid: " + field.getDefaultMessage());
        }
        if (failure instanceof MissingRequestValueException missing) {
            return simple(400, "Missing required " + missing.getLabel() + " '" + missing.getName() + "'");
        }
        TypeMismatchException mismatch = find(failure, TypeMismatchException.class);
        if (mismatch != null) {
            String name = mismatch.getPropertyName();
            if (name == null && failure instanceof ServerWebInputException web) {
                name = parameterName(web.getMethodParameter());
            }
            String type = mismatch.getRequiredType() == null ? "value" : describe(mismatch.getRequiredType());
            return simple(400, name == null ? "A parameter has a value of the wrong type; expected " + type
                    : "Parameter '" + name + "' must be " + type);
        }
        if (failure instanceof HttpMessageNotReadableException || failure instanceof DecodingException
                || (failure instanceof ServerWebInputException && find(failure, DecodingException.class) != null)) {
            JacksonException json = find(failure, JacksonException.class);
            String path = json == null ? "" : jsonPath(json.getPath());
            return simple(400, path.isEmpty() ? "The request body is not valid JSON for this endpoint"
                    : "The request body is not valid JSON for this endpoint: field '" + path + "' has a wrong value");
        }
        if (failure instanceof ServerWebInputException web) {
            String reason = web.getReason();
            if (reason != null && reason.startsWith("No request body")) {
                return simple(400, "A JSON request body is required");
            }
            return simple(400, "The request is invalid");
        }
        return null;
    }

    private static ApiError simple(int status, String message) {
        return new ApiError(status, ErrorBody.of(ErrorCode.forStatus(status), status, message), Map.of());
    }

    /** Headers a client needs to recover: which methods or media types are allowed. */
    private static Map<String, String> passOnHeaders(HttpHeaders headers) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : List.of(HttpHeaders.ALLOW, HttpHeaders.ACCEPT, HttpHeaders.RETRY_AFTER)) {
            String value = headers.getFirst(name);
            if (value != null) {
                out.put(name, String.join(", ", headers.getOrEmpty(name)));
            }
        }
        return out;
    }

    public static String defaultMessage(int status) {
        return switch (status) {
            case 400 -> "The request is invalid";
            case 401 -> Unauthorized.MESSAGE;
            case 403 -> "This request is not allowed for the API key";
            case 404 -> "No resource exists at this path";
            case 405 -> "This method is not allowed on this path";
            case 406 -> "The requested media type cannot be produced; this API answers application/json";
            case 409 -> "The request conflicts with the current state of the resource";
            case 413 -> "The request body is too large";
            case 414 -> "The request URI is too long";
            case 415 -> "Unsupported content type; send application/json";
            case 429 -> "Rate limit exceeded";
            case 431 -> "The request headers are too large";
            case 502, 503, 504 -> "The service is temporarily unavailable; retry later";
            default -> status >= 500 ? "An internal error occurred" : "The request is invalid";
        };
    }

    private static String parameterName(MethodParameter parameter) {
        if (parameter == null) {
            return null;
        }
        RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
        if (annotation != null && !annotation.name().isEmpty()) {
            return annotation.name();
        }
        return parameter.getParameterName();
    }

    private static String describe(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == java.util.UUID.class) {
            return "a UUID";
        }
        if (type.isEnum()) {
            StringBuilder values = new StringBuilder();
            for (Object constant : type.getEnumConstants()) {
                values.append(values.isEmpty() ? "" : ", ").append(constant.toString().toLowerCase(java.util.Locale.ROOT));
            }
            return "one of " + values;
        }
        return "a valid value";
    }

    private static String jsonPath(List<JacksonException.Reference> path) {
        StringBuilder out = new StringBuilder();
        for (JacksonException.Reference reference : path) {
            if (reference.getPropertyName() != null) {
                out.append(out.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                out.append('[').append(reference.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        return type.cast(firstCause(failure, type::isInstance));
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        return find(failure, type) != null;
    }

    private static boolean causeOfClass(Throwable failure, String className) {
        return firstCause(failure, t -> t.getClass().getName().equals(className)) != null;
    }

    /**
     * A connection reset by the other side (Netty's native {@code Connection reset by peer}, the JDK's
     * {@code Connection reset}): a service that went away mid-exchange, as unavailable as one that closed early.
     */
    private static boolean connectionReset(Throwable failure) {
        return firstCause(failure, t -> t instanceof IOException && t.getMessage() != null
                && t.getMessage().contains("Connection reset")) != null;
    }

    private static boolean causeNamed(Throwable failure, String simpleName) {
        return firstCause(failure, t -> t.getClass().getSimpleName().equals(simpleName)) != null;
    }

    /** The failure or the first of its causes that passes the test, or null. */
    private static Throwable firstCause(Throwable failure, Predicate<Throwable> test) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (test.test(t)) {
                return t;
            }
        }
        return null;
    }
}
