package org.rma4j.mpi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds which MPI implementation to bind and its shared library, without a machine path as the only way.
 *
 * <p>The ABI, first found of: the system property {@value #ABI_PROP_NAME} or the environment variable
 * {@value #ABI_ENV_NAME} ({@code openmpi} or {@code mpich}); the launcher that started the process
 * ({@link MpiAbi#launched}: Open MPI's {@code mpirun} sets {@code OMPI_COMM_WORLD_RANK}, MPICH's Hydra
 * {@code PMI_RANK}); otherwise Open MPI.
 *
 * <p>The library, first found of: the system property {@value #LIBRARY_PROP_NAME} or the environment variable
 * {@value #LIBRARY_ENV_NAME} (a path); the directories the implementation's compiler wrapper reports
 * ({@code mpicc.openmpi --showme:libdirs}, {@code mpicc.mpich -show}, then plain {@code mpicc}); the dynamic
 * linker's cache ({@code ldconfig -p}). Whether the library found is of the chosen implementation is checked
 * when it is loaded ({@code MPI_Get_library_version}).
 */
public final class MpiLibraryLocator {
    /** System property naming the ABI: {@code openmpi} or {@code mpich}. */
    public static final String ABI_PROP_NAME = "rma4j.mpi.abi";
    /** Environment variable naming the ABI, read when the property is not set. */
    public static final String ABI_ENV_NAME = "RMA4J_MPI_ABI";
    /** System property with the path of the MPI shared library. */
    public static final String LIBRARY_PROP_NAME = "rma4j.mpi.library";
    /** Environment variable with the path of the MPI shared library, read when the property is not set. */
    public static final String LIBRARY_ENV_NAME = "RMA4J_MPI_LIBRARY";

    private static final long COMMAND_TIMEOUT_SECONDS = 20;

    /**
     * Where the library is and how it was found.
     *
     * @param abi   the implementation.
     * @param path  the shared library.
     * @param how   how the ABI and the path were chosen, for messages.
     */
    public record Location(MpiAbi abi, Path path, String how) {
    }

    private MpiLibraryLocator() {
    }

    /**
     * @return the location for this process (its system properties and environment).
     * @throws IllegalStateException naming everything tried, if no library is found.
     */
    public static Location locate() {
        return locate(System.getProperty(ABI_PROP_NAME), System.getProperty(LIBRARY_PROP_NAME), System.getenv());
    }

    /**
     * @param abiName     the ABI asked for ({@code openmpi}, {@code mpich}) or null.
     * @param libraryPath the library asked for or null.
     * @param environment the process's environment.
     */
    static Location locate(final String abiName, final String libraryPath, final Map<String, String> environment) {
        final String abiAsked = abiName != null ? abiName : environment.get(ABI_ENV_NAME);
        final MpiAbi abi;
        final String abiHow;
        if (abiAsked != null) {
            abi = abiNamed(abiAsked);
            abiHow = "asked for (" + abiAsked + ")";
        } else if (MpiAbi.MPICH.launched(environment)) {
            abi = MpiAbi.MPICH;
            abiHow = "launched by MPICH (PMI_RANK set)";
        } else {
            abi = MpiAbi.OPEN_MPI;
            abiHow = MpiAbi.OPEN_MPI.launched(environment)
                ? "launched by Open MPI (OMPI_COMM_WORLD_RANK set)"
                : "not launched by an MPI launcher: Open MPI by default";
        }
        final String pathAsked = libraryPath != null ? libraryPath : environment.get(LIBRARY_ENV_NAME);
        if (pathAsked != null) {
            return new Location(abi, Path.of(pathAsked), abi.name() + " " + abiHow + ", library asked for");
        }
        final List<String> tried = new ArrayList<>();
        final Optional<Path> fromWrapper = fromCompilerWrapper(abi, tried);
        if (fromWrapper.isPresent()) {
            return new Location(abi, fromWrapper.get(),
                abi.name() + " " + abiHow + ", library from " + tried.getLast());
        }
        final Optional<Path> fromCache = fromLinkerCache(abi, tried);
        if (fromCache.isPresent()) {
            return new Location(abi, fromCache.get(), abi.name() + " " + abiHow + ", library from ldconfig -p");
        }
        throw new IllegalStateException("no " + abi.name() + " library (" + String.join(", ", abi.libraryNames())
            + ") found; tried: " + String.join("; ", tried) + ". Install it (Debian: apt-get install "
            + (abi == MpiAbi.MPICH ? "mpich libmpich-dev" : "openmpi-bin libopenmpi-dev") + ") or set -D"
            + LIBRARY_PROP_NAME + "=PATH");
    }

    static MpiAbi abiNamed(final String name) {
        return switch (name.toLowerCase(Locale.ROOT).replace(" ", "").replace("-", "").replace("_", "")) {
            case "openmpi", "ompi" -> MpiAbi.OPEN_MPI;
            case "mpich" -> MpiAbi.MPICH;
            default -> throw new IllegalArgumentException("unknown MPI ABI '" + name + "': openmpi or mpich");
        };
    }

    private static Optional<Path> fromCompilerWrapper(final MpiAbi abi, final List<String> tried) {
        for (final String wrapper : abi.compilerWrappers()) {
            final List<String> command = abi.linkLineCommand(wrapper);
            final Optional<String> output = run(command);
            tried.add(String.join(" ", command) + (output.isEmpty() ? " (not runnable)" : ""));
            if (output.isEmpty()) {
                continue;
            }
            for (final String directory : abi.libraryDirectories(output.get())) {
                for (final String name : abi.libraryNames()) {
                    final Path candidate = Path.of(directory, name);
                    if (Files.isRegularFile(candidate)) {
                        return Optional.of(candidate);
                    }
                }
            }
        }
        return Optional.empty();
    }

    static Optional<Path> fromLinkerCache(final MpiAbi abi, final List<String> tried) {
        for (final String ldconfig : List.of("ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig")) {
            final Optional<String> output = run(List.of(ldconfig, "-p"));
            if (output.isEmpty()) {
                continue;
            }
            tried.add(ldconfig + " -p");
            for (final String name : abi.libraryNames()) {
                // e.g. "	libmpi.so.40 (libc6,x86-64) => /lib/x86_64-linux-gnu/libmpi.so.40"
                for (final String line : output.get().split("\n")) {
                    final String entry = line.strip();
                    final int arrow = entry.indexOf("=> ");
                    if (entry.startsWith(name + " ") && arrow > 0 && entry.contains("x86-64") == isX86()) {
                        return Optional.of(Path.of(entry.substring(arrow + 3).strip()));
                    }
                }
            }
            return Optional.empty();
        }
        tried.add("ldconfig -p (not runnable)");
        return Optional.empty();
    }

    private static boolean isX86() {
        return System.getProperty("os.arch").equals("amd64");
    }

    /** @return the standard output of a command that ran and exited 0. */
    private static Optional<String> run(final List<String> command) {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            final String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return process.exitValue() == 0 ? Optional.of(output) : Optional.empty();
        } catch (final IOException e) {
            return Optional.empty();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
