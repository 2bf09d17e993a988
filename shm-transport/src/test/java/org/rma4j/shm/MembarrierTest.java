package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class MembarrierTest {
    @Test
    void shouldBeSupportedOnLinuxKernelsThatReportTheCommands() throws IOException {
        // The kernel reports membarrier in its syscall list for this process's architecture; where the
        // property is left at its default, a Linux 4.16+ kernel without a seccomp filter supports it.
        final String release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        final int major = Integer.parseInt(release.split("\\.")[0]);
        if (major >= 5 && Boolean.parseBoolean(System.getProperty(Membarrier.ENABLED_PROP_NAME, "true"))) {
            assertTrue(Membarrier.isGlobalExpeditedSupported(), "membarrier on kernel " + release);
        }
    }

    @Test
    void shouldRegisterIdempotentlyAndIssueTheBarrier() {
        final boolean first = Membarrier.registerGlobalExpedited();
        assertEquals(Membarrier.isGlobalExpeditedSupported(), first);
        assertEquals(first, Membarrier.registerGlobalExpedited());
        if (first) {
            Membarrier.globalExpedited();
        }
        Membarrier.heavyFence();
    }
}
