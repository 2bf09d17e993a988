package org.rma4j.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-origin notification lanes ({@link NotifyChannel}), one call at a time (the {@code impl} parameter
 * named the shared ring the lanes replaced, too; its figures are in notify-queue/README.md):
 * <ul>
 *   <li>{@code roundTrip}: an 8-byte notification to an echo thread, which sends it back through the
 *       benchmark thread's own queue: two offers and two polls across two cores (divide by 2 for a half round
 *       trip);</li>
 *   <li>{@code offerPoll}: one offer and one poll on one thread, the origin rotating over {@code origins}
 *       (plain and release stores, every line in one core);</li>
 *   <li>{@code emptyPoll}: a poll that finds nothing, over {@code origins} lanes (the cursor lane's stamp and
 *       the summary words).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class NotifyLanesBenchmark {
    @Param({NotifyChannel.LANES})
    public String impl;

    @Param({"2", "8", "64"})
    public int origins;

    private NotifyChannel toEcho;
    private NotifyChannel toBench;
    private NotifyChannel.Producer benchToEcho;
    private NotifyChannel.Producer[] rotating;
    private Thread echo;
    private volatile boolean running;
    private long value;
    private int next;

    @Setup(Level.Trial)
    public void setup() {
        toEcho = NotifyChannel.of(impl, origins);
        toBench = NotifyChannel.of(impl, origins);
        benchToEcho = toEcho.producer(0);
        final NotifyChannel.Producer echoToBench = toBench.producer(1);
        rotating = new NotifyChannel.Producer[origins];
        for (int origin = 2; origin < origins; origin++) {
            rotating[origin] = toBench.producer(origin);
        }
        rotating[0] = toBench.producer(0);
        rotating[1] = echoToBench;
        running = true;
        echo = new Thread(() -> {
            while (running) {
                final long before = toEcho.sum();
                if (toEcho.drain(1) == 1) {
                    final long received = toEcho.sum() - before;
                    while (!echoToBench.offer(received) && running) {
                        Thread.onSpinWait();
                    }
                } else {
                    Thread.onSpinWait();
                }
            }
        }, "notify-echo");
        echo.setDaemon(true);
    }

    @TearDown(Level.Trial)
    public void teardown() throws InterruptedException {
        running = false;
        if (echo.isAlive()) {
            echo.join();
        }
        toEcho.close();
        toBench.close();
    }

    /**
     * One 8-byte notification to the echo thread and back; the echo thread starts with the first call.
     */
    @Benchmark
    public long roundTrip() {
        if (!echo.isAlive() && echo.getState() == Thread.State.NEW) {
            echo.start();
        }
        final long sent = ++value;
        while (!benchToEcho.offer(sent)) {
            Thread.onSpinWait();
        }
        final long before = toBench.sum();
        while (toBench.drain(1) == 0) {
            Thread.onSpinWait();
        }
        return toBench.sum() - before;
    }

    @Benchmark
    public int offerPoll() {
        final int origin = next;
        next = origin + 1 == origins ? 0 : origin + 1;
        if (!rotating[origin].offer(origin)) {
            throw new IllegalStateException(impl + " refused an offer to an empty queue");
        }
        return toBench.drain(1);
    }

    @Benchmark
    public int emptyPoll() {
        return toBench.drain(1);
    }
}
