package org.rma4j.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process launcher of tests: the command line of a child JVM that runs a class of the test class path
 * with native access enabled, and what {@code /proc} tells about a process.
 *
 * <p>The test JVM must run with its real class path in {@code java.class.path} (surefire:
 * {@code useSystemClassLoader=true}, {@code useManifestOnlyJar=false}, as the parent pom sets).
 */
public final class TestProcesses {
    /** The option every JVM that maps shared files with the FFM API runs with. */
    public static final String NATIVE_ACCESS_OPTION = "--enable-native-access=ALL-UNNAMED";

    private TestProcesses() {
    }

    /**
     * @return the {@code java} executable of the running JVM.
     */
    public static String java() {
        return ProcessHandle.current().info().command()
            .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * @return the class path of the running (test) JVM.
     */
    public static String classPath() {
        return System.getProperty("java.class.path");
    }

    /**
     * @return {@code java <jvmOptions> --enable-native-access=ALL-UNNAMED -cp <test class path> <mainClass>
     *         <args>}.
     */
    public static List<String> javaCommand(final List<String> jvmOptions, final Class<?> mainClass,
        final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(jvmOptions);
        command.add(NATIVE_ACCESS_OPTION);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass.getName());
        command.addAll(args);
        return command;
    }

    /**
     * @return {@code java --enable-native-access=ALL-UNNAMED -cp <test class path> <mainClass> <args>}.
     */
    public static List<String> javaCommand(final Class<?> mainClass, final String... args) {
        return javaCommand(List.of(), mainClass, List.of(args));
    }

    /**
     * Whether a process exists and is not a zombie (an ended child its parent has not reaped yet).
     */
    public static boolean isRunning(final long pid) {
        try {
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (final IOException | UncheckedIOException e) {
            return false;
        }
    }

    /**
     * @return the environment block of a process, variables separated by NUL ("" if unreadable).
     */
    public static String environment(final long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.ISO_8859_1);
        } catch (final IOException | UncheckedIOException e) {
            return "";
        }
    }
}
