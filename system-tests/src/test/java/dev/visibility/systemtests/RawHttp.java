package dev.visibility.systemtests;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * HTTP/1.1 on a plain socket, one request per connection (read by its length, then closed, so
 * that a server answering before it read a body is not cut off): the request target goes out byte for
 * byte as given (no client normalizes {@code /./}, {@code //} or percent-escapes), and the local
 * address can be chosen (a second loopback address is a second client to the gateway).
 */
final class RawHttp {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RawHttp() {
    }

    record Answer(int status, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** The parsed body, or null when it is not a JSON object. */
        @SuppressWarnings("unchecked")
        Map<String, Object> json() {
            try {
                Object parsed = JSON.readValue(body, Object.class);
                return parsed instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
            } catch (RuntimeException e) {
                return null;
            }
        }

        /** Spec 7: {@code {error, message, status[, reason]}} with {@code status} equal to the HTTP status. */
        boolean hasErrorShape() {
            Map<String, Object> json = json();
            return json != null && json.get("error") instanceof String && json.get("message") instanceof String
                    && Integer.valueOf(status).equals(json.get("status"))
                    && json.keySet().stream().allMatch(k -> k.equals("error") || k.equals("message") || k.equals("status")
                            || k.equals("reason"));
        }
    }

    static Answer send(int port, String method, String target, Map<String, String> headers, byte[] body) {
        return send(null, port, method, target, headers, body);
    }

    /** Sends one request from {@code localAddress} (null: any) and reads the whole answer. */
    static Answer send(String localAddress, int port, String method, String target, Map<String, String> headers, byte[] body) {
        try (Socket socket = new Socket()) {
            if (localAddress != null) {
                socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(20_000);
            StringBuilder head = new StringBuilder();
            head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            head.append("Host: 127.0.0.1:").append(port).append("\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (body != null) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (body == null || body.length == 0) {
                return read(socket.getInputStream(), method.equals("HEAD"));
            }
            // full duplex, as HTTP/1.1 allows: a server may answer (413, 401, 404) and close before it
            // has read the whole body, and that answer is what the caller gets
            Thread writer = new Thread(() -> {
                try {
                    out.write(body);
                    out.flush();
                } catch (IOException e) {
                    // the server stopped reading; its answer is read below
                }
            }, "raw-http-body");
            writer.setDaemon(true);
            writer.start();
            try {
                return read(socket.getInputStream(), method.equals("HEAD"));
            } finally {
                writer.interrupt();
            }
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + target + " failed: " + e, e);
        }
    }

    /** Reads one answer: its head, then a body by Content-Length, chunks, or until the server closes. */
    private static Answer read(InputStream in, boolean head) throws IOException {
        ByteArrayOutputStream headBytes = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Connection closed before a complete answer: "
                        + headBytes.toString(StandardCharsets.ISO_8859_1));
            }
            headBytes.write(b);
            matched = (b == '\r' || b == '\n') && (matched % 2 == 0) == (b == '\r') ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String[] lines = headBytes.toString(StandardCharsets.ISO_8859_1).trim().split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] body;
        if (head || status == 204 || status == 304 || status < 200) {
            body = new byte[0];
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = readChunks(in);
        } else if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else {
            body = in.readAllBytes();
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] readChunks(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line(in);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                while (!line(in).isEmpty()) {
                    // trailers
                }
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
