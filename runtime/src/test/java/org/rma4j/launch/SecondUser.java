package org.rma4j.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real second user of the machine, created for one test with {@code useradd} (the tests run as root)
 * and deleted with {@code userdel} in {@link #close()}. Its commands run to their end in {@link #run}, so
 * it has no process left when it is deleted. Shared by the test packages that need a user other than the
 * one running the tests (launch, reliability).
 */
public final class SecondUser implements AutoCloseable {
    private final String name;

    private SecondUser(final String name) {
        this.name = name;
    }

    public static SecondUser create() throws IOException, InterruptedException {
        final String name = "rma4jt" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        final Result created = exec(List.of("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name));
        if (created.status() != 0) {
            throw new IllegalStateException("useradd " + name + " failed (the tests need root): " + created.output());
        }
        return new SecondUser(name);
    }

    public String name() {
        return name;
    }

    /**
     * Runs a command as this user.
     */
    public Result run(final String... command) throws IOException, InterruptedException {
        final List<String> full = new ArrayList<>(List.of("runuser", "-u", name, "--"));
        full.addAll(List.of(command));
        return exec(full);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        final Result deleted = exec(List.of("userdel", name));
        if (deleted.status() != 0) {
            throw new IllegalStateException("userdel " + name + " failed: " + deleted.output());
        }
    }

    private static Result exec(final List<String> command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " hangs");
        }
        return new Result(process.exitValue(), output);
    }

    public record Result(int status, String output) {
    }
}
