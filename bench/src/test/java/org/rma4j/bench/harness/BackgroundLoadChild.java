package org.rma4j.bench.harness;

import java.io.IOException;

/**
 * A JVM that starts busy processes as the harness does and waits to be stopped, for
 * {@link BackgroundLoadTest}: usage {@code BackgroundLoadChild COUNT WATCHED_PID}. It prints the pid of each
 * busy process on a line, then {@code ready}, then blocks on standard input.
 */
public final class BackgroundLoadChild {
    private BackgroundLoadChild() {
    }

    public static void main(final String[] args) throws IOException {
        final BackgroundLoad load = new BackgroundLoad(Integer.parseInt(args[0]), Long.parseLong(args[1]));
        load.processes().forEach(p -> System.out.println(p.pid()));
        System.out.println("ready");
        System.out.flush();
        System.in.read();
    }
}
