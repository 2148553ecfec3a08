package dev.visibility.platform.error.servlet;

import dev.visibility.platform.error.ErrorBody;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.ErrorMapper;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors that never reach a controller (a servlet filter failing, the container refusing a
 * request) are forwarded to /error; this answers them in the error shape too.
 */
@RestController
public class ServletErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    public ResponseEntity<ErrorBody> error(HttpServletRequest request) {
        Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        if (failure instanceof Throwable throwable) {
            return ServletErrorAdvice.toResponse(ErrorMapper.map(throwable));
        }
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value && value >= 400 ? value : 404;
        return ServletErrorAdvice.toResponse(new dev.visibility.platform.error.ApiError(status,
                ErrorBody.of(ErrorCode.forStatus(status), status, ErrorMapper.defaultMessage(status)), java.util.Map.of()));
    }
}
