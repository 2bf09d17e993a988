package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every value an ABI class assumes ({@link MpiAbi#headerFacts()}: constants, handle and MPI_Status layout,
 * predefined objects) against the implementation's real {@code mpi.h}: a C program generated from the facts is
 * compiled with the implementation's {@code mpicc} and prints each expression's value.
 */
class MpiAbiHeaderTest {
    @TempDir
    Path directory;

    @Test
    void openMpiFactsShouldMatchItsHeader() throws IOException, InterruptedException {
        assertFactsMatch(MpiAbi.OPEN_MPI, "mpicc.openmpi");
    }

    @Test
    void mpichFactsShouldMatchItsHeader() throws IOException, InterruptedException {
        assertFactsMatch(MpiAbi.MPICH, "mpicc.mpich");
    }

    @Test
    void everyAbiShouldNameEveryDatatypeOperationThreadLevelAndErrorClass() {
        for (final MpiAbi abi : List.of(MpiAbi.OPEN_MPI, MpiAbi.MPICH)) {
            final Set<String> facts = abi.headerFacts().keySet();
            for (final MpiBasicType type : MpiBasicType.values()) {
                assertTrue(names(facts, type.cName()), abi.name() + " " + type);
            }
            for (final MpiOp op : MpiOp.values()) {
                assertTrue(names(facts, op.cName()), abi.name() + " " + op);
            }
            for (final MpiThreadLevel level : MpiThreadLevel.values()) {
                assertEquals(level.ordinal(), abi.constant(level.cName()));
            }
            final Set<MpiErrorClass> onlyMpich = EnumSet.of(MpiErrorClass.PROC_ABORTED, MpiErrorClass.PROC_FAILED);
            for (final MpiErrorClass errorClass : MpiErrorClass.values()) {
                if (errorClass == MpiErrorClass.UNLISTED || abi == MpiAbi.OPEN_MPI && onlyMpich.contains(errorClass)) {
                    continue;
                }
                final int code = abi.constant(errorClass.cName());
                assertEquals(errorClass, MpiErrorClass.of(abi, code), abi.name() + " " + errorClass);
            }
            assertEquals(MpiErrorClass.UNLISTED, MpiErrorClass.of(abi, 12345));
        }
    }

    /** @return whether one of the expressions names {@code cName} (as a whole word). */
    private static boolean names(final Set<String> expressions, final String cName) {
        final Pattern word = Pattern.compile("\\b" + cName + "\\b");
        return expressions.stream().anyMatch(expression -> word.matcher(expression).find());
    }

    private void assertFactsMatch(final MpiAbi abi, final String compiler) throws IOException, InterruptedException {
        final Map<String, Long> expected = abi.headerFacts();
        final StringBuilder source = new StringBuilder("""
            #include <mpi.h>
            #include <stddef.h>
            #include <stdio.h>
            int main(void) {
            """);
        for (final String expression : expected.keySet()) {
            source.append("    printf(\"%s\\t%lld\\n\", \"").append(expression).append("\", (long long) (")
                .append(expression).append("));\n");
        }
        source.append("    return 0;\n}\n");
        final Path program = directory.resolve("facts.c");
        Files.writeString(program, source);
        final Path binary = directory.resolve("facts");
        run(List.of(compiler, "-o", binary.toString(), program.toString()));
        final Map<String, Long> actual = new LinkedHashMap<>();
        for (final String line : run(List.of(binary.toString())).split("\n")) {
            final int tab = line.lastIndexOf('\t');
            actual.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
        }
        final List<String> differences = new ArrayList<>();
        expected.forEach((expression, value) -> {
            if (!value.equals(actual.get(expression))) {
                differences.add(expression + ": binding " + value + ", mpi.h " + actual.get(expression));
            }
        });
        assertEquals(List.of(), differences, abi.name() + " facts that differ from " + compiler + "'s mpi.h");
        assertEquals(expected.size(), actual.size());
    }

    private String run(final List<String> command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), String.join(" ", command) + ":\n" + output);
        return output;
    }
}
