package org.rma4j.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the report says about the machine: CPU, cores, memory, load average and the peer tools' versions.
 */
final class MachineInfo {
    private MachineInfo() {
    }

    /**
     * @return the 1-minute load average from /proc/loadavg, or -1 where there is none.
     */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split("\\s+")[0]);
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
    }

    static String describe() {
        String model = "unknown CPU";
        try {
            model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse(model);
        } catch (final IOException e) {
            // keep "unknown CPU"
        }
        final long memoryGiB = Math
            .round(((com.sun.management.OperatingSystemMXBean)java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getTotalMemorySize() / (double)(1L << 30));
        return model + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, " + memoryGiB + " GiB, "
            + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /**
     * @return each tool found, with the first line of its version output.
     */
    static Map<String, String> toolVersions(final Peers.Detection detection, final Path directory) {
        final Map<String, String> versions = new LinkedHashMap<>();
        detection.gcc().ifPresent(p -> versions.put("gcc", version(p, List.of("--version"), directory)));
        for (final Peers.MpiTool mpi : List.of(detection.openMpi(), detection.mpich())) {
            mpi.launcherPath()
                .ifPresent(p -> versions.put(mpi.launcher(), version(p, List.of("--version"), directory)));
        }
        return versions;
    }

    private static String version(final Path tool, final List<String> args, final Path directory) {
        final List<String> command = new java.util.ArrayList<>(List.of(tool.toString()));
        command.addAll(args);
        final Optional<String> line = Processes.versionLine(command, directory);
        return line.orElse(tool.toString());
    }
}
