package org.rma4j.mpi;

import java.lang.foreign.MemoryLayout;
import java.util.List;
import java.util.Map;

/** The parts of {@link MpiAbi#headerFacts()} that every implementation states in the same form. */
final class AbiFacts {
    private AbiFacts() {
    }

    /**
     * Adds every constant, the sizes of a handle and of {@code MPI_Aint}, and the size and public field
     * offsets of {@code MPI_Status}.
     */
    static void addCommon(final MpiAbi abi, final Map<String, Long> facts) {
        facts.putAll(abi.constants());
        for (final String handleType : List.of("MPI_Comm", "MPI_Group", "MPI_Win", "MPI_Request", "MPI_Datatype",
            "MPI_Op", "MPI_Info", "MPI_Errhandler")) {
            facts.put("sizeof(" + handleType + ")", abi.handleLayout().byteSize());
        }
        facts.put("sizeof(MPI_Aint)", 8L);
        facts.put("sizeof(MPI_Status)", abi.statusLayout().byteSize());
        for (final String field : List.of("MPI_SOURCE", "MPI_TAG", "MPI_ERROR")) {
            facts.put("offsetof(MPI_Status, " + field + ")",
                abi.statusLayout().byteOffset(MemoryLayout.PathElement.groupElement(field)));
        }
    }
}
