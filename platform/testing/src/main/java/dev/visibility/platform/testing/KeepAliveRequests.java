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
 * request that got no answer within the timeout; the requests end there). A plain socket, so that no client library hides a lost request by retrying.
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

    private record Response(int status, boolean close) {
    }

    /** Reads one response with a Content-Length or chunked body. */
    private static Response readResponse(InputStream in) throws IOException {
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
        if (!chunked) {
            skip(in, length);
            return new Response(status, close);
        }
        for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
                size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
            skip(in, size);
            line(in);
        }
        for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
            // trailers are read and dropped
        }
        return new Response(status, close);
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

    private static void skip(InputStream in, long length) throws IOException {
        long left = length;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("the server closed the connection inside a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }
}
