package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.rma4j.test.TestProcesses;

/** Library discovery: overrides, the launcher's fingerprint, the compiler wrappers, ldconfig, the ABI check. */
class MpiLibraryLocatorTest {
    @Test
    void shouldChooseTheAbiOfTheLauncher() {
        assertEquals(MpiAbi.OPEN_MPI, MpiLibraryLocator.locate(null, "/x", Map.of("OMPI_COMM_WORLD_RANK", "0")).abi());
        assertEquals(MpiAbi.MPICH, MpiLibraryLocator.locate(null, "/x", Map.of("PMI_RANK", "0")).abi());
        assertEquals(MpiAbi.OPEN_MPI, MpiLibraryLocator.locate(null, "/x", Map.of()).abi(), "the default");
    }

    @Test
    void propertyAndEnvironmentShouldOverrideTheLauncher() {
        assertEquals(MpiAbi.MPICH, MpiLibraryLocator.locate("mpich", "/x", Map.of("OMPI_COMM_WORLD_RANK", "0")).abi());
        assertEquals(MpiAbi.OPEN_MPI, MpiLibraryLocator
            .locate(null, "/x", Map.of("PMI_RANK", "0", MpiLibraryLocator.ABI_ENV_NAME, "Open MPI")).abi());
        assertEquals(Path.of("/opt/mpi/libmpi.so"), MpiLibraryLocator
            .locate(null, null, Map.of(MpiLibraryLocator.LIBRARY_ENV_NAME, "/opt/mpi/libmpi.so")).path());
        assertThrows(IllegalArgumentException.class, () -> MpiLibraryLocator.locate("lam", "/x", Map.of()));
    }

    @Test
    void shouldFindEachLibraryThroughItsCompilerWrapper() {
        for (final MpiAbi abi : List.of(MpiAbi.OPEN_MPI, MpiAbi.MPICH)) {
            final MpiLibraryLocator.Location location = MpiLibraryLocator
                .locate(abi == MpiAbi.MPICH ? "mpich" : "openmpi", null, Map.of());
            assertTrue(abi.libraryNames().contains(location.path().getFileName().toString()), location.toString());
            assertTrue(Files.isRegularFile(location.path()), location.toString());
            assertTrue(location.how().contains("library from " + abi.compilerWrappers().getFirst()), location.how());
        }
    }

    @Test
    void shouldFindEachLibraryInTheLinkerCache() {
        for (final MpiAbi abi : List.of(MpiAbi.OPEN_MPI, MpiAbi.MPICH)) {
            final Path path = MpiLibraryLocator.fromLinkerCache(abi, new ArrayList<>()).orElseThrow();
            assertTrue(abi.libraryNames().contains(path.getFileName().toString()), path.toString());
            assertTrue(Files.exists(path), path.toString());
        }
    }

    @Test
    void shouldReadTheLibraryDirectoriesOfEachWrapperAndRefuseTheOthers() {
        final String mpichLine = "gcc -Wl,-z,relro -I/usr/include/x86_64-linux-gnu/mpich -L/usr/lib/x86_64-linux-gnu"
            + " -lmpich";
        final String openMpiLine = "/usr/lib/x86_64-linux-gnu/openmpi/lib\n";
        assertEquals(List.of("/usr/lib/x86_64-linux-gnu"), MpiAbi.MPICH.libraryDirectories(mpichLine));
        assertEquals(List.of(), MpiAbi.MPICH.libraryDirectories(openMpiLine));
        assertEquals(List.of("/usr/lib/x86_64-linux-gnu/openmpi/lib"), MpiAbi.OPEN_MPI.libraryDirectories(openMpiLine));
        assertEquals(List.of(), MpiAbi.OPEN_MPI.libraryDirectories(mpichLine));
    }

    @Test
    void shouldLoadEitherLibraryAndRefuseToInitializeAMismatchedOne() throws IOException, InterruptedException {
        final String openMpi = probe(List.of("-D" + MpiLibraryLocator.ABI_PROP_NAME + "=openmpi"));
        assertTrue(openMpi.contains("version=Open MPI v"), openMpi);
        final String mpich = probe(List.of("-D" + MpiLibraryLocator.ABI_PROP_NAME + "=mpich"));
        assertTrue(mpich.contains("version=MPICH Version:"), mpich);
        final Path mpichLibrary = MpiLibraryLocator.locate("mpich", null, Map.of()).path();
        final Process mismatched = new ProcessBuilder(
            TestProcesses.javaCommand(
                List.of("-D" + MpiLibraryLocator.ABI_PROP_NAME + "=openmpi",
                    "-D" + MpiLibraryLocator.LIBRARY_PROP_NAME + "=" + mpichLibrary),
                LibraryProbe.class, List.of("init")))
            .redirectErrorStream(true).start();
        final String output = new String(mismatched.getInputStream().readAllBytes());
        assertNotEquals(0, mismatched.waitFor(), output);
        assertTrue(output.contains(mpichLibrary + " is not Open MPI"), output);
    }

    private static String probe(final List<String> options) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(TestProcesses.javaCommand(options, LibraryProbe.class, List.of()))
            .redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), output);
        return output;
    }
}
