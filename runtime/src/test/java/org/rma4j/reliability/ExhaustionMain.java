package org.rma4j.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * A rank that asks for more than the machine can give: datatypes and groups of 2^31 elements and windows
 * until the mapping budget runs out. Prints one line per attempt, {@code NAME OUTCOME} where the outcome
 * is {@code ok ...} or the MPI error class; a JVM error would end the rank with a non-zero status instead.
 */
public final class ExhaustionMain {
    private ExhaustionMain() {
    }

    public static void main(final String[] args) {
        attempt("vector-touching",
            () -> "elements=" + Datatype.vector(Integer.MAX_VALUE, 1, 1, Datatype.INT).elements());
        attempt("vector-strided",
            () -> "elements=" + Datatype.vector(Integer.MAX_VALUE, 1, 2, Datatype.INT).elements());
        attempt("vector-nested", () -> "elements="
            + Datatype.vector(1 << 16, 1, 2, Datatype.vector(1 << 16, 1, 2, Datatype.INT)).elements());
        attempt("vector-of-huge-contiguous", () -> "elements=" + Datatype
            .vector(Integer.MAX_VALUE, 1, 2, Datatype.contiguous(Integer.MAX_VALUE, Datatype.LONG)).elements());
        attempt("contiguous-of-vector", () -> "elements="
            + Datatype.contiguous(Integer.MAX_VALUE, Datatype.vector(4, 1, 2, Datatype.INT)).elements());
        attempt("group-range", () -> "size=" + Group.range(Integer.MAX_VALUE).size());
        attempt("group-of", () -> "size=" + Group.of(0, Integer.MAX_VALUE).size());
        try (RmaJob job = Rma.init()) {
            final List<Window> windows = new ArrayList<>();
            String outcome = "ok";
            while (outcome.equals("ok")) {
                try {
                    windows.add(job.allocateShared(8, 8));
                } catch (final RmaException e) {
                    outcome = e.errorClass().name();
                    System.out.println("windows-message " + e.getMessage());
                }
            }
            System.out.println("windows " + outcome + " live=" + windows.size());
            attempt("allocMem", () -> "address=" + job.allocMem(64).address());
            windows.removeLast().free();
            windows.add(job.allocateShared(8, 8));
            System.out.println("windows-after-free ok live=" + windows.size());
            for (final Window window : windows) {
                window.free();
            }
            attempt("allocMem-after-free", () -> "bytes=" + job.allocMem(64).byteSize());
        }
    }

    private static void attempt(final String name, final Supplier<String> call) {
        try {
            System.out.println(name + " ok " + call.get());
        } catch (final RmaException e) {
            System.out.println(name + " " + e.errorClass().name());
            System.out.println(name + "-message " + e.getMessage());
        }
    }
}
