package org.rma4j.examples;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * Runs an example's main class as a job of real JVM processes through {@link Launcher}, in a private
 * base directory under /dev/shm that {@link #close()} removes with everything in it.
 */
public final class ProcessJob implements AutoCloseable {
    private final ShmTestDirectory directory = new ShmTestDirectory();
    private final Path base = directory.path();

    /**
     * Creates the base directory.
     */
    public ProcessJob() {
    }

    /**
     * How a job ended and what its ranks wrote.
     *
     * @param result the launcher's result.
     * @param lines  every line of standard output and standard error, prefixed {@code [rank] }, and the
     *               launcher's own messages.
     */
    public record Outcome(JobResult result, List<String> lines) {
        /**
         * @return the lines as one string, for assertion messages.
         */
        public String transcript() {
            return String.join("\n", lines);
        }
    }

    /**
     * Runs {@code mainClass} on {@code ranks} processes with the test JVM's class path and waits for it.
     */
    public Outcome run(final int ranks, final Class<?> mainClass, final String... args) throws InterruptedException {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder().ranks(ranks).mainClass(mainClass.getName()).args(args)
            .baseDirectory(base).output(lines::add).errorOutput(lines::add).build().run();
        return new Outcome(result, List.copyOf(lines));
    }

    /**
     * @return the base directory the job directories are created in.
     */
    public Path base() {
        return base;
    }

    /**
     * Deletes the base directory recursively.
     */
    @Override
    public void close() {
        directory.close();
    }
}
