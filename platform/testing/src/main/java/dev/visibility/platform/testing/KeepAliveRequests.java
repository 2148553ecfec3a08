package dev.visibility.platform.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sends GET requests one after another over an HTTP/1.1 keep-alive connection, the way curl, the
 * JDK client and Kubernetes' connection-reusing callers do (a new connection only when the server
 * ends one with {@code Connection: close}), and answers the status of each ({@code -1} for a
 * request that got no answer within the timeout; the requests end there). A plain socket, so that no client library
 * hides a lost request by retrying. {@link #readResponse} reads one answer for a test that writes its own requests.
 */
public final class KeepAliveRequests {

    private KeepAliveRequests() {
    }

    public static List<Integer> statuses(int port, String path, int count, int timeoutMillis) throws IOException {
        List<Integer> statuses = new ArrayList<>(count);
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\nAccept: application/json\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        while (statuses.size() < count) {
            // a server may end a connection after a number of requests (Tomcat: 100), saying so with
            // Connection: close on the last answer; the next request then goes on a new connection
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(timeoutMillis);
                socket.setTcpNoDelay(true);
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                boolean open = true;
                while (open && statuses.size() < count) {
                    out.write(request);
                    out.flush();
                    Response response;
                    try {
                        response = readResponse(in);
                    } catch (SocketTimeoutException e) {
                        statuses.add(-1);
                        return statuses;
                    }
                    statuses.add(response.status());
                    open = !response.close();
                }
            }
        }
        return statuses;
    }

    /**
     * One HTTP/1.1 answer: its status, whether it ends the connection ({@code Connection: close}) and its body (UTF-8).
     */
    public record Response(int status, boolean close, String body) {
    }

    /**
     * Reads one answer with a Content-Length or chunked body, to its end; a connection closed before that is an
     * {@link IOException}, and a read that waits longer than the socket's timeout a {@link SocketTimeoutException}.
     */
    public static Response readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        long length = 0;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring("content-length:".length()).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (!chunked) {
            copy(in, length, body);
            return new Response(status, close, body.toString(StandardCharsets.UTF_8));
        }
        for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
                size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
            copy(in, size, body);
            line(in);
        }
        for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
            // trailers are read and dropped
        }
        return new Response(status, close, body.toString(StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the server closed the connection");
            }
            if (b != '\r') {
                bytes.write(b);
            }
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    private static void copy(InputStream in, long length, ByteArrayOutputStream to) throws IOException {
        byte[] buffer = new byte[8192];
        long left = length;
        while (left > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (read < 0) {
                throw new IOException("the server closed the connection inside a body");
            }
            to.write(buffer, 0, read);
            left -= read;
        }
    }
}
