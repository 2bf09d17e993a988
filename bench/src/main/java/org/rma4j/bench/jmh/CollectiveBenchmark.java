package org.rma4j.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
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
import org.rma4j.Communicator;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.WaitOptions;
import org.rma4j.messaging.Messaging;
import org.rma4j.shm.JobDirectory;

/**
 * Cost of one collective call on a communicator (its barrier, and its allreduce through the shared
 * exchange halves) against the same call of the Messaging layer on the same communicator, the
 * message-passing baseline: a thread-mode job of two ranks in which the benchmark thread plays rank 0
 * and rank 1 repeats the same call in a loop. With {@code wait=spin} both busy-spin while they wait, so
 * the time depends on both having a core (on a loaded machine a call then costs a scheduler time slice
 * now and then); {@code wait=adaptive} sleeps after a short spin. {@code allreduce8} reduces one long,
 * {@code allreduce64k} 8192 longs (SUM).
 *
 * <p>Stopping: rank 0 publishes {@code stopAt = completed + 1} and makes one last call; rank 1 checks
 * {@code stopAt} before each call, so neither is left in a half-matched collective (see {@link Cycles}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class CollectiveBenchmark {
    /** Which layer makes the call: {@code communicator} or {@code messaging}. */
    @Param({"communicator", "messaging"})
    public String layer;

    /** The call: {@code barrier}, {@code allreduce8} or {@code allreduce64k}. */
    @Param({"barrier", "allreduce8", "allreduce64k"})
    public String call;

    /**
     * How both ranks wait: {@code spin} (busy-spin: the latency when each rank has a core of its own) or
     * {@code adaptive} (the default strategy: spin briefly, then sleep; what a loaded machine needs).
     */
    @Param({"spin", "adaptive"})
    public String wait = "spin";

    private final AtomicLong stopAt = new AtomicLong(-1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final CompletableFuture<Runnable> origin = new CompletableFuture<>();
    private Path base;
    private Thread runner;
    private Runnable operation;
    private long completed;
    private volatile Throwable failure;
    private MemorySegment result;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        base = Files.createTempDirectory(JobDirectory.defaultBase(), TwoRankJob.BASE_PREFIX);
        runner = Thread.ofPlatform().name("rma4j-bench-collectives").daemon(true).start(() -> {
            try {
                final WaitOptions options = switch (wait) {
                    case "spin" -> WaitOptions.busySpin();
                    case "adaptive" -> WaitOptions.defaults();
                    default -> throw new IllegalArgumentException("wait " + wait);
                };
                Rma.callThreads(2, base, options, job -> {
                    final Communicator comm = job.world().dup();
                    final Messaging messaging = Messaging.create(comm);
                    final Runnable op = operation(comm, messaging);
                    if (job.rank() == 0) {
                        origin.complete(op);
                        released.await();
                    } else {
                        for (long done = 0;; done++) {
                            final long stop = stopAt.get();
                            if (stop >= 0 && done >= stop) {
                                break;
                            }
                            op.run();
                        }
                    }
                    messaging.close();
                    comm.free();
                    return null;
                });
            } catch (final Throwable t) {
                failure = t;
                origin.completeExceptionally(t);
            }
        });
        operation = origin.get(TwoRankJob.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private Runnable operation(final Communicator comm, final Messaging messaging) {
        final long longs = switch (call) {
            case "barrier" -> 0;
            case "allreduce8" -> 1;
            case "allreduce64k" -> 8192;
            default -> throw new IllegalArgumentException("call " + call);
        };
        final MemorySegment send = MemorySegment.ofArray(new long[(int)longs]);
        send.fill((byte)1);
        final MemorySegment recv = MemorySegment.ofArray(new long[(int)longs]);
        result = recv;
        final boolean communicator = switch (layer) {
            case "communicator" -> true;
            case "messaging" -> false;
            default -> throw new IllegalArgumentException("layer " + layer);
        };
        if (longs == 0) {
            return communicator ? comm::barrier : messaging::barrier;
        }
        return communicator
            ? () -> comm.allreduce(send, recv, longs, Datatype.LONG, Op.SUM)
            : () -> messaging.allreduce(send, recv, longs, Datatype.LONG, Op.SUM);
    }

    @Benchmark
    public void run() {
        operation.run();
        completed++;
    }

    @TearDown(Level.Trial)
    public void teardown() throws Exception {
        try {
            stopAt.set(completed + 1);
            operation.run();
        } finally {
            released.countDown();
            runner.join(TimeUnit.SECONDS.toMillis(TwoRankJob.TIMEOUT_SECONDS));
            try (Stream<Path> files = Files.walk(base)) {
                files.sorted(Comparator.reverseOrder()).forEach(CollectiveBenchmark::delete);
            }
        }
        if (failure != null) {
            throw new IllegalStateException("the two-rank job failed", failure);
        }
    }

    /**
     * @return the receive buffer of the last allreduce of the trial (for the smoke test).
     */
    MemorySegment result() {
        return result;
    }

    private static void delete(final Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
