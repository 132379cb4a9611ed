package io.strata.core.ufs.s3;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * An HTTP proxy on the loopback between an S3 client and its server that injects the failures
 * S3 clients meet: 503 SlowDown and 500 responses, connections reset before or halfway through a
 * response, and delays. One request per connection (it asks the server to close after each
 * response), which the S3 SDK handles like any server closing idle connections.
 *
 * <p>A {@link Policy} decides the fault of each request from its method, target and sequence
 * number. Published in core's test jar for the integration tests; a test helper, not a product.
 */
public final class FaultProxy implements Closeable {
    /** What happens to one request. */
    public enum Fault {
        /** Forwarded untouched. */
        PASS,
        /** Answered 503 SlowDown (S3's throttling) without reaching the server. */
        SLOW_DOWN,
        /** Answered 500 InternalError without reaching the server. */
        INTERNAL_ERROR,
        /** The connection is reset as soon as the request head arrived. */
        RESET,
        /** Forwarded, and the connection reset after the response head and half its body. */
        RESET_MID_RESPONSE,
        /** Held for the proxy's delay, then forwarded. */
        DELAY
    }

    /** Decides the fault for the {@code n}th request (1-based) through the proxy. */
    @FunctionalInterface
    public interface Policy {
        Fault decide(String method, String target, int n);
    }

    private static final int MAX_HEAD = 64 * 1024;

    private final URI upstream;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger faults = new AtomicInteger();
    private volatile Policy policy = (method, target, n) -> Fault.PASS;
    private volatile Duration delay = Duration.ofSeconds(5);
    private volatile boolean closed;

    private FaultProxy(URI upstream) throws IOException {
        this.upstream = requireNonNull(upstream, "upstream is null");
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.acceptor = new Thread(this::acceptLoop, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to the HTTP server at {@code upstream} (scheme, host and port are used). */
    public static FaultProxy start(URI upstream) throws IOException {
        return new FaultProxy(upstream);
    }

    /** The proxy's own endpoint, to give the client instead of the server's. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    public FaultProxy policy(Policy policy) {
        this.policy = requireNonNull(policy, "policy is null");
        return this;
    }

    /** Every request of this method gets {@code fault}; the others pass. */
    public FaultProxy always(String method, Fault fault) {
        return policy((m, target, n) -> m.equals(method) ? fault : Fault.PASS);
    }

    /** The first {@code count} requests of this method (from now) get {@code fault}, the rest pass. */
    public FaultProxy first(int count, String method, Fault fault) {
        AtomicInteger left = new AtomicInteger(count);
        return policy((m, target, n) -> m.equals(method) && left.getAndDecrement() > 0 ? fault : Fault.PASS);
    }

    public FaultProxy passAll() {
        return policy((method, target, n) -> Fault.PASS);
    }

    public FaultProxy delay(Duration delay) {
        this.delay = requireNonNull(delay, "delay is null");
        return this;
    }

    /** Requests seen so far. */
    public int requests() {
        return requests.get();
    }

    /** Requests that got a fault other than PASS. */
    public int faults() {
        return faults.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket socket : sockets) {
            quietly(socket);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread handler = new Thread(() -> handle(client), "fault-proxy-conn");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("fault proxy: accept failed: " + e);
                }
            }
        }
    }

    private void handle(Socket client) {
        Socket server = null;
        try {
            InputStream in = client.getInputStream();
            byte[] head = readHead(in);
            if (head == null) {
                return;
            }
            String text = new String(head, StandardCharsets.ISO_8859_1);
            String[] requestLine = text.substring(0, text.indexOf("\r\n")).split(" ");
            String method = requestLine[0];
            String target = requestLine.length > 1 ? requestLine[1] : "";
            Fault fault = policy.decide(method, target, requests.incrementAndGet());
            if (fault != Fault.PASS) {
                faults.incrementAndGet();
            }
            switch (fault) {
                case SLOW_DOWN -> answer(client, in, text, method, 503, "Slow Down", "SlowDown",
                        "Please reduce your request rate.");
                case INTERNAL_ERROR -> answer(client, in, text, method, 500, "Internal Server Error",
                        "InternalError", "We encountered an internal error. Please try again.");
                case RESET -> reset(client);
                case DELAY, PASS, RESET_MID_RESPONSE -> {
                    if (fault == Fault.DELAY) {
                        Thread.sleep(delay.toMillis());
                    }
                    server = new Socket(upstream.getHost(), upstream.getPort());
                    sockets.add(server);
                    forward(client, in, server, closeAfterResponse(text), fault == Fault.RESET_MID_RESPONSE);
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the client or the server went away: so does the other side
        } finally {
            quietly(client);
            if (server != null) {
                quietly(server);
            }
        }
    }

    /** The request head with "Connection: close", so the server ends the connection after its response. */
    private static byte[] closeAfterResponse(String head) {
        StringBuilder out = new StringBuilder();
        for (String line : head.split("\r\n")) {
            if (line.isEmpty() || line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                continue;
            }
            out.append(line).append("\r\n");
        }
        out.append("Connection: close\r\n\r\n");
        return out.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private void forward(Socket client, InputStream clientIn, Socket server, byte[] head, boolean cutResponse)
            throws IOException, InterruptedException {
        OutputStream toServer = server.getOutputStream();
        toServer.write(head);
        toServer.flush();
        Thread upload = new Thread(() -> {
            try {
                clientIn.transferTo(toServer);
            } catch (IOException e) {
                // either side closed
            }
        }, "fault-proxy-up");
        upload.setDaemon(true);
        upload.start();
        InputStream fromServer = server.getInputStream();
        OutputStream toClient = client.getOutputStream();
        if (!cutResponse) {
            fromServer.transferTo(toClient);
            toClient.flush();
            client.shutdownOutput();
            return;
        }
        byte[] responseHead = readHead(fromServer);
        if (responseHead == null) {
            reset(client);
            return;
        }
        long length = contentLength(new String(responseHead, StandardCharsets.ISO_8859_1));
        toClient.write(responseHead);
        byte[] half = fromServer.readNBytes((int) Math.max(0, Math.min(length / 2, 1 << 20)));
        toClient.write(half);
        toClient.flush();
        reset(client);
    }

    private void answer(Socket client, InputStream in, String head, String method, int status, String reason,
                        String code, String message) throws IOException {
        boolean expectsContinue = head.toLowerCase(Locale.ROOT).contains("\r\nexpect: 100-continue");
        long length = contentLength(head);
        if (!expectsContinue && length > 0) {
            in.readNBytes((int) Math.min(length, Integer.MAX_VALUE)); // drain, so the client reads our answer
        }
        byte[] body = method.equals("HEAD") ? new byte[0]
                : ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + message
                        + "</Message><RequestId>FAULTPROXY</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
        String response = "HTTP/1.1 " + status + " " + reason + "\r\n"
                + "Content-Type: application/xml\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "x-amz-request-id: FAULTPROXY\r\n"
                + "Connection: close\r\n\r\n";
        OutputStream out = client.getOutputStream();
        out.write(response.getBytes(StandardCharsets.ISO_8859_1));
        if (!method.equals("HEAD")) {
            out.write(body);
        }
        out.flush();
        client.shutdownOutput();
    }

    /** Bytes up to and including the blank line after the headers, or null at end of stream. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            if (head.size() > MAX_HEAD) {
                throw new IOException("request head too long");
            }
        }
        return head.toByteArray();
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Long.parseLong(line.substring("content-length:".length()).trim());
            }
        }
        return 0;
    }

    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private void quietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
