package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.test.ShmTestDirectory;
import org.rma4j.shm.JobDirectory;

/**
 * {@code rmarun --aot-cache}: the first job records the cache at rank 0, the next starts every rank from
 * it. The JVM writes such a cache only for a class path of jar files, so the launcher runs in its own JVM
 * on jars made from this test's class path. The second job runs with {@code -XX:AOTMode=on}, under which
 * a JVM that cannot use the cache refuses to start: its exit status 0 proves each rank ran from it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RmaRunAotCacheTest {
    private ShmTestDirectory base;

    @TempDir
    Path temp;

    @BeforeEach
    void createBaseDirectory() throws IOException {
        base = new ShmTestDirectory("launch-test-");
    }

    @AfterEach
    void removeBaseDirectory() throws IOException {
        base.close();
    }

    @Test
    void shouldRecordTheCacheAtRankZeroThenStartEveryRankFromIt() throws Exception {
        final String jars = jarsOf(System.getProperty("java.class.path"));
        final Path cache = temp.resolve("job.aot");

        final Result first = rmarun(jars, "--aot-cache", cache.toString(), "jvm-options");
        assertEquals(0, first.status(), first.output());
        assertTrue(Files.size(cache) > 0, "rank 0 wrote no cache: " + first.output());
        assertTrue(lineOf(first, 0).contains(Launcher.AOT_CACHE_OUTPUT_OPTION + cache), first.output());
        assertFalse(lineOf(first, 1).contains("-XX:AOT"), "rank 1 starts without a cache option: " + first.output());

        final Result second = rmarun(jars, "--aot-cache", cache.toString(), "--jvm-opt=-XX:AOTMode=on", "jvm-options");
        assertEquals(0, second.status(), second.output());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(lineOf(second, rank).contains(Launcher.AOT_CACHE_OPTION + cache), second.output());
        }
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldRefuseAClassPathWithADirectoryNamingIt() {
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        final String directory = Path.of("target", "test-classes").toAbsolutePath().toString();

        final int status = RmaRun.execute(sink, new PrintStream(errBytes, true, StandardCharsets.UTF_8), "-n", "2",
            "--shm-dir", base.path().toString(), "--aot-cache", temp.resolve("x.aot").toString(), "-cp",
            System.getProperty("java.class.path"), RankProgram.class.getName(), "jvm-options");

        final String err = errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(RmaRun.EXIT_USAGE, status, err);
        assertTrue(err.contains("--aot-cache needs a class path of jar files") && err.contains(directory), err);
        assertFalse(Files.exists(temp.resolve("x.aot")));
    }

    @Test
    void shouldFailTheJobWhenTheFileIsNoCacheAndTheCacheIsRequired() throws Exception {
        final String jars = jarsOf(System.getProperty("java.class.path"));
        final Path cache = Files.writeString(temp.resolve("not-a-cache.aot"), "not a cache");

        final Result result = rmarun(jars, "--aot-cache", cache.toString(), "--jvm-opt=-XX:AOTMode=on", "jvm-options");

        assertNotEquals(0, result.status(), "a rank started with -XX:AOTMode=on from a file that is no cache");
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    private record Result(int status, String output) {
    }

    /** Runs rmarun in its own JVM on {@code jars}, two ranks of {@link RankProgram}, its mode last in tail. */
    private Result rmarun(final String jars, final String... tail) throws Exception {
        final List<String> command = new ArrayList<>(List.of(Launcher.currentJava(), Launcher.NATIVE_ACCESS_OPTION,
            "-cp", jars, RmaRun.class.getName(), "-n", "2", "--shm-dir", base.path().toString(), "-cp", jars));
        command.addAll(List.of(tail).subList(0, tail.length - 1));
        command.add(RankProgram.class.getName());
        command.add(tail[tail.length - 1]);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), output);
    }

    private static String lineOf(final Result result, final int rank) {
        return result.output().lines().filter(line -> line.startsWith("[" + rank + "] jvm-options=")).findFirst()
            .orElseThrow(() -> new AssertionError("rank " + rank + " printed no jvm-options line: " + result.output()));
    }

    /** The class path with every directory entry replaced by a jar of its contents (made under temp). */
    private String jarsOf(final String classpath) throws IOException {
        final List<String> jars = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            final Path path = Path.of(entry);
            if (!Files.isDirectory(path)) {
                jars.add(entry);
                continue;
            }
            final Path jar = temp.resolve("classes-" + jars.size() + ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(path)) {
                for (final Path file : (Iterable<Path>)files.filter(Files::isRegularFile)::iterator) {
                    out.putNextEntry(new JarEntry(path.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            jars.add(jar.toString());
        }
        return String.join(File.pathSeparator, jars);
    }
}
