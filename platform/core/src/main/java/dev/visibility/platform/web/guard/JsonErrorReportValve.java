package dev.visibility.platform.web.guard;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error answers (a URI it refuses, an encoded {@code /}, a failure before the
 * servlet) in the error body of spec 7 instead of Tomcat's HTML page (issue 15). Answers that
 * already have a body, those of the application included, are left as they are.
 */
public class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.setHeader("Cache-Control", "no-store");
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                writer.write(new String(NettyErrorBodies.body(status), StandardCharsets.UTF_8));
                response.finishResponse();
            }
        } catch (Exception | LinkageError e) {
            // the connection is gone or the answer committed: nothing more can be said
        }
    }
}
