package dev.visibility.platform.error.servlet;

import dev.visibility.platform.error.ApiError;
import dev.visibility.platform.error.ErrorBody;
import dev.visibility.platform.error.ErrorMapper;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The Spring MVC side of the one error handler (auth-service runs on Spring MVC). */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ServletErrorAdvice {

    @ExceptionHandler(Throwable.class)
    public ResponseEntity<ErrorBody> handle(Throwable failure) {
        return toResponse(ErrorMapper.map(failure));
    }

    static ResponseEntity<ErrorBody> toResponse(ApiError error) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(HttpStatusCode.valueOf(error.status()))
                .contentType(MediaType.APPLICATION_JSON)
                .header("Cache-Control", "no-store");
        error.headers().forEach(builder::header);
        return builder.body(error.body());
    }
}
