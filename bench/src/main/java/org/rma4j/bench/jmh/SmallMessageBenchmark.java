package org.rma4j.bench.jmh;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.WaitOptions;
import org.rma4j.Window;
import org.rma4j.messaging.Messaging;
import org.rma4j.shm.JobDirectory;

/**
 * The software cost of one small message, per message, on one thread of a one-rank job (the rank sends to
 * itself, so no cache line leaves the core and nothing waits): what each of the fan-in patterns costs its
 * producer and consumer together, apart from the cache-line transfers and the scheduler.
 *
 * <ul>
 *   <li>{@code notifiedEach}: {@code putNotify} of 8 bytes, then {@code start} + {@code await} of a request for
 *   one notification (a request per message).</li>
 *   <li>{@code notifiedBatch}: {@value #BATCH} {@code putNotify} of 8 bytes, then {@code start} + {@code await}
 *   of a request for {@value #BATCH} (counting, one status per batch), per message.</li>
 *   <li>{@code messagingSendRecv}: {@code Messaging.send} of 8 bytes, then {@code recv} from any source, per
 *   message (eager).</li>
 *   <li>{@code messagingBatch}: {@value #BATCH} sends, then {@value #BATCH} receives from any source, per
 *   message.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class SmallMessageBenchmark {
    /** Messages per invocation of the batch benchmarks. */
    static final int BATCH = 64;
    private static final int TAG = 3;

    private final CountDownLatch released = new CountDownLatch(1);
    private CompletableFuture<Object[]> started;
    private Thread runner;
    private Path base;
    private Window window;
    private Messaging messaging;
    private NotifyRequest one;
    private NotifyRequest many;
    private final MemorySegment word = MemorySegment.ofArray(new long[1]);
    private final MemorySegment received = MemorySegment.ofArray(new long[1]);
    private long value;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        base = Files.createTempDirectory(JobDirectory.defaultBase(), TwoRankJob.BASE_PREFIX);
        started = new CompletableFuture<>();
        runner = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                Rma.callThreads(1, base, WaitOptions.busySpin(), job -> {
                    run(job);
                    return null;
                });
            } catch (final Throwable t) {
                started.completeExceptionally(t);
            }
        });
        final Object[] handles = started.get(TwoRankJob.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        window = (Window)handles[0];
        messaging = (Messaging)handles[1];
        one = window.notifyInit(0, TAG, 1);
        many = window.notifyInit(0, TAG, BATCH);
    }

    private void run(final RmaJob job) throws InterruptedException {
        try (Window w = job.allocate(64, 1); Messaging m = Messaging.create(job)) {
            started.complete(new Object[] {w, m});
            released.await();
        }
    }

    @TearDown(Level.Trial)
    public void teardown() throws Exception {
        one.close();
        many.close();
        released.countDown();
        runner.join(TimeUnit.SECONDS.toMillis(TwoRankJob.TIMEOUT_SECONDS));
        try (var tree = Files.walk(base)) {
            for (final Path p : tree.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public NotifyRequest.Status notifiedEach() {
        word.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, ++value);
        window.putNotify(word, 0, 0, TAG);
        one.start();
        return one.await();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public NotifyRequest.Status notifiedBatch() {
        for (int i = 0; i < BATCH; i++) {
            word.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, ++value);
            window.putNotify(word, 0, 0, TAG);
        }
        many.start();
        return many.await();
    }

    @Benchmark
    public Object messagingSendRecv() {
        word.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, ++value);
        messaging.send(word, 0, TAG);
        return messaging.recv(received, Rma.ANY_SOURCE, TAG);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object messagingBatch() {
        for (int i = 0; i < BATCH; i++) {
            word.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, ++value);
            messaging.send(word, 0, TAG);
        }
        Object last = null;
        for (int i = 0; i < BATCH; i++) {
            last = messaging.recv(received, Rma.ANY_SOURCE, TAG);
        }
        return last;
    }
}
