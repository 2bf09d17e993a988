package org.rma4j.bench.jmh;

/**
 * JVM options of the forked benchmark JVMs, as compile-time constants for
 * {@code @Fork(jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})}.
 *
 * <p>JMH starts each fork with {@code -cp}, not {@code -jar}, so the {@code Enable-Native-Access}
 * and {@code Add-Exports} attributes of the benchmarks jar's manifest apply to the host JVM only;
 * the forks need the options themselves.
 */
public final class BenchJvm {
    /** rma4j maps the job's files with the FFM API and calls futex through the Linker. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** Agrona 2.x reaches {@code jdk.internal.misc.Unsafe}; its baselines fail with IllegalAccessError without it. */
    public static final String AGRONA_EXPORTS = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    private BenchJvm() {
    }
}
