package org.rma4j.modulepath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.RmaJob;
import org.rma4j.mpi.Mpi;
import org.rma4j.notify.Matcher;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.test.ShmTestDirectory;
import org.rma4j.test.TestProcesses;

/**
 * The library jars' module descriptors at work: a JVM with shm-transport, notify-queue, mpi-transport and the
 * runtime on its module path (a job in threads does not load libmpi) runs a job through the exported API ({@link ModulePathMain}), the runtime exports exactly
 * {@code org.rma4j}, {@code org.rma4j.launch} and {@code org.rma4j.messaging}, and the lower modules export
 * their packages only to the modules built on them. Native access is granted by module name, as the runtime
 * README tells module-path users, so the JDK prints no warning about restricted methods.
 */
@Timeout(300)
class ModulePathTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldRunAJobOnTheModulePathWithOnlyTheApiPackagesExported() throws Exception {
        final String modulePath = String.join(File.pathSeparator, codeSource(WaitStrategy.class),
            codeSource(Matcher.class), codeSource(Mpi.class), codeSource(RmaJob.class));
        final List<String> command = List.of(TestProcesses.java(),
            "--enable-native-access=org.rma4j.shm,org.rma4j.notify,org.rma4j.mpi,org.rma4j.runtime",
            "-D" + "rma4j.shm.dir=" + base.path(), "--module-path", modulePath, "--add-modules", "org.rma4j.runtime",
            "-cp", codeSource(ModulePathMain.class), ModulePathMain.class.getName());
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), output);

        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("runtime module: org.rma4j.runtime"), output);
        assertTrue(output.contains("runtime exports: [org.rma4j, org.rma4j.launch, org.rma4j.messaging]"), output);
        assertTrue(output.contains("runtime internal exported: false"), output);
        assertTrue(output.contains("runtime events exported: false"), output);
        assertTrue(output.contains("shm exported to everyone: false"), output);
        assertTrue(output.contains("shm exported to runtime: true"), output);
        assertTrue(output.contains("notify exported to everyone: false"), output);
        assertTrue(output.contains("notify exported to runtime: true"), output);
        assertTrue(output.contains("mpi exported to everyone: false"), output);
        assertTrue(output.contains("mpi exported to runtime: true"), output);
        assertTrue(output.contains("internal.mpi exported: false"), output);
        assertTrue(output.contains("job values: [101, 100]"), output);
        assertTrue(output.contains("module path: ok"), output);
        assertFalse(output.contains("restricted method"), output);
    }

    /** The class directory or jar a class was loaded from (the reactor's target/classes in a build). */
    private static String codeSource(final Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
