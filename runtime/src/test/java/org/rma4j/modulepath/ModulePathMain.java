package org.rma4j.modulepath;

import java.lang.foreign.ValueLayout;
import java.util.List;

import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * Run by {@link ModulePathTest} in a JVM whose module path holds the three library modules and whose class
 * path holds only this class: a 2-rank job in threads through the exported API, then what the module layer
 * says of each package. Prints one line per fact and {@code module path: ok} at the end; any failure is an
 * exception (non-zero exit).
 */
public final class ModulePathMain {
    private ModulePathMain() {
    }

    public static void main(final String[] args) {
        final Module runtime = RmaJob.class.getModule();
        final Module shm = ModuleLayer.boot().findModule("org.rma4j.shm").orElseThrow();
        final Module notify = ModuleLayer.boot().findModule("org.rma4j.notify").orElseThrow();
        final Module mpi = ModuleLayer.boot().findModule("org.rma4j.mpi").orElseThrow();
        System.out.println("runtime module: " + runtime.getName());
        System.out.println("runtime exports: " + exported(runtime));
        System.out.println("runtime internal exported: " + runtime.isExported("org.rma4j.internal"));
        System.out.println("runtime events exported: " + runtime.isExported("org.rma4j.events"));
        System.out.println("shm exported to everyone: " + shm.isExported("org.rma4j.shm"));
        System.out.println("shm exported to runtime: " + shm.isExported("org.rma4j.shm", runtime));
        System.out.println("notify exported to everyone: " + notify.isExported("org.rma4j.notify"));
        System.out.println("notify exported to runtime: " + notify.isExported("org.rma4j.notify", runtime));
        System.out.println("mpi exported to everyone: " + mpi.isExported("org.rma4j.mpi"));
        System.out.println("mpi exported to runtime: " + mpi.isExported("org.rma4j.mpi", runtime));
        System.out.println("internal.mpi exported: " + runtime.isExported("org.rma4j.internal.mpi"));

        final List<Long> seen = Rma.callThreads(2, job -> {
            try (Window window = job.allocate(Long.BYTES, Long.BYTES)) {
                window.fence(0);
                window.put(new long[] {100L + job.rank()}, 0, 1, 1 - job.rank(), 0);
                window.fence(0);
                return window.segment().get(ValueLayout.JAVA_LONG, 0);
            }
        });
        System.out.println("job values: " + seen);
        System.out.println("module path: ok");
    }

    private static List<String> exported(final Module module) {
        return module.getPackages().stream().filter(module::isExported).sorted().toList();
    }
}
