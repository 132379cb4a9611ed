package io.strata.it.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy that adds latency without capping throughput, in place of {@code tc netem delay}
 * where the kernel has no {@code sch_netem}: every chunk of bytes, in each direction, is released
 * to the other side {@code DELAY_MS} after it arrived. Reading goes on while earlier chunks wait,
 * so a transfer keeps its full rate and only gains the delay, as on a long link (up to 64 MiB may
 * be in transit per direction and connection: a 6 GB/s bandwidth-delay product at 10 ms).
 *
 * <p>Optionally the link has a bandwidth, {@code LINK_MIB_S} per direction shared by all
 * connections (as one network link is): each chunk then also waits for the link to have carried
 * the chunks before it, at that rate. This is for machines where the client, the server and the
 * proxy share a few cores: there the bytes are limited by CPU, not by a network, and a capped link
 * puts the limit back where a real object store has it.
 *
 * <p>Usage: {@code DelayProxy TARGET_HOST:PORT DELAY_MS PORT_FILE [LINK_MIB_S]}. Listens on a free
 * loopback port, written to PORT_FILE once listening; runs until killed. Two threads per direction
 * and connection (a reader and a delayed writer); a half-close is passed on after the delay too.
 */
public final class DelayProxy {
    private static final int CHUNK = 256 * 1024;
    private static final int IN_TRANSIT = 64 << 20;
    private static final byte[] EOF = new byte[0];

    private final String host;
    private final int port;
    private final long delayNs;
    /** The two directions of the link; null when it has no bandwidth cap. */
    private final Link up;
    private final Link down;
    private final AtomicInteger connections = new AtomicInteger();

    private DelayProxy(String host, int port, long delayNs, long bytesPerSecond) {
        this.host = host;
        this.port = port;
        this.delayNs = delayNs;
        this.up = bytesPerSecond > 0 ? new Link(bytesPerSecond) : null;
        this.down = bytesPerSecond > 0 ? new Link(bytesPerSecond) : null;
    }

    /** One direction of a link of fixed bandwidth: when each chunk has been carried, in the order they are sent. */
    private static final class Link {
        private final double nanosPerByte;
        private long freeAt;

        Link(long bytesPerSecond) {
            this.nanosPerByte = 1e9 / bytesPerSecond;
        }

        /** Takes the link for {@code bytes}; returns when they will have been carried (System.nanoTime). */
        synchronized long carry(int bytes) {
            freeAt = Math.max(freeAt, System.nanoTime()) + (long) (bytes * nanosPerByte);
            return freeAt;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 4) {
            System.err.println("usage: DelayProxy TARGET_HOST:PORT DELAY_MS PORT_FILE [LINK_MIB_S]");
            System.exit(2);
        }
        int colon = args[0].lastIndexOf(':');
        long linkBytesPerSecond = args.length == 4 ? Long.parseLong(args[3]) << 20 : 0;
        DelayProxy proxy = new DelayProxy(args[0].substring(0, colon), Integer.parseInt(args[0].substring(colon + 1)),
                TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[1])), linkBytesPerSecond);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
            Path portFile = Path.of(args[2]);
            Path partial = portFile.resolveSibling(portFile.getFileName() + ".tmp");
            Files.writeString(partial, Integer.toString(server.getLocalPort()));
            Files.move(partial, portFile, StandardCopyOption.ATOMIC_MOVE);
            while (true) {
                Socket client = server.accept();
                proxy.connect(client);
            }
        }
    }

    private void connect(Socket client) {
        int id = connections.incrementAndGet();
        Thread starter = new Thread(() -> {
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(host, port), 10_000);
                for (Socket socket : new Socket[] {client, upstream}) {
                    socket.setTcpNoDelay(true);
                }
                Connection connection = new Connection(client, upstream);
                connection.pump(client, upstream, up, "c" + id + "-up");
                connection.pump(upstream, client, down, "c" + id + "-down");
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
            }
        }, "delay-connect-" + id);
        starter.setDaemon(true);
        starter.start();
    }

    /** Both sockets of one proxied connection; closed once both directions ended, or at the first error. */
    private final class Connection {
        private final Socket a;
        private final Socket b;
        private final AtomicInteger open = new AtomicInteger(2);

        Connection(Socket a, Socket b) {
            this.a = a;
            this.b = b;
        }

        void pump(Socket from, Socket to, Link link, String name) throws IOException {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            BlockingQueue<Object[]> queue = new LinkedBlockingQueue<>();
            Semaphore room = new Semaphore(IN_TRANSIT);
            Thread reader = new Thread(() -> {
                byte[] buffer = new byte[CHUNK];
                try {
                    while (true) {
                        int n = in.read(buffer);
                        long arrived = System.nanoTime();
                        if (n < 0) {
                            queue.put(new Object[] {EOF, arrived});
                            return;
                        }
                        room.acquire(n);
                        queue.put(new Object[] {Arrays.copyOf(buffer, n), arrived});
                    }
                } catch (IOException | InterruptedException e) {
                    abort();
                    queue.offer(new Object[] {null, 0L});
                }
            }, name + "-read");
            Thread writer = new Thread(() -> {
                try {
                    while (true) {
                        Object[] chunk = queue.take();
                        byte[] bytes = (byte[]) chunk[0];
                        if (bytes == null) {
                            return;
                        }
                        long due = (long) chunk[1] + delayNs;
                        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        if (bytes == EOF) {
                            to.shutdownOutput();
                            finished();
                            return;
                        }
                        if (link != null) {
                            long carried = link.carry(bytes.length);
                            for (long wait = carried - System.nanoTime(); wait > 0; wait = carried - System.nanoTime()) {
                                LockSupport.parkNanos(wait);
                            }
                        }
                        out.write(bytes);
                        room.release(bytes.length);
                    }
                } catch (IOException | InterruptedException e) {
                    abort();
                }
            }, name + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void finished() {
            if (open.decrementAndGet() == 0) {
                abort();
            }
        }

        private void abort() {
            closeQuietly(a);
            closeQuietly(b);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
