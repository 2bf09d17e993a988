package org.rma4j.mpi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ABI of Open MPI 4.x (read from Debian's {@code /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h},
 * Open MPI 4.1.4): handles are pointers ({@code typedef struct ompi_communicator_t *MPI_Comm}), a predefined
 * object is the address of an exported symbol ({@code #define MPI_COMM_WORLD
 * OMPI_PREDEFINED_GLOBAL(MPI_Comm, ompi_mpi_comm_world)}), and {@code MPI_Status} is
 *
 * <pre>
 *   0        4        8        12       16                24
 *   +--------+--------+--------+--------+-----------------+
 *   | SOURCE | TAG    | ERROR  |_cancel.| _ucount (size_t)|
 *   +--------+--------+--------+--------+-----------------+
 * </pre>
 */
final class OpenMpiAbi implements MpiAbi {
    private static final StructLayout STATUS = MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("MPI_SOURCE"),
        ValueLayout.JAVA_INT.withName("MPI_TAG"), ValueLayout.JAVA_INT.withName("MPI_ERROR"),
        ValueLayout.JAVA_INT.withName("_cancelled"), ValueLayout.JAVA_LONG.withName("_ucount"))
        .withName("ompi_status_public_t");

    /** {@code mpi.h} name -> the symbol its macro takes the address of. */
    private static final Map<String, String> SYMBOLS = symbols();

    private static final Map<String, Long> CONSTANTS = constantTable();

    @Override
    public String name() {
        return "Open MPI";
    }

    @Override
    public List<String> libraryNames() {
        return List.of("libmpi.so.40", "libmpi.so");
    }

    @Override
    public List<String> compilerWrappers() {
        return List.of("mpicc.openmpi", "mpicc");
    }

    @Override
    public List<String> linkLineCommand(final String wrapper) {
        return List.of(wrapper, "--showme:libdirs");
    }

    @Override
    public List<String> libraryDirectories(final String output) {
        // MPICH's mpicc does not know --showme:libdirs and prints an error or a link line instead.
        final List<String> directories = new ArrayList<>();
        for (final String word : output.strip().split("\\s+")) {
            if (word.startsWith("/")) {
                directories.add(word);
            } else if (!word.isEmpty()) {
                return List.of();
            }
        }
        return directories;
    }

    @Override
    public boolean launched(final Map<String, String> environment) {
        return environment.containsKey("OMPI_COMM_WORLD_RANK");
    }

    @Override
    public ValueLayout handleLayout() {
        return ValueLayout.JAVA_LONG;
    }

    @Override
    public long predefinedHandle(final String cName, final SymbolLookup library) {
        final String symbol = SYMBOLS.get(cName);
        if (symbol == null) {
            throw new IllegalArgumentException("no Open MPI symbol known for " + cName);
        }
        return library.find(symbol)
            .orElseThrow(
                () -> new IllegalStateException("the Open MPI library exports no " + symbol + " (" + cName + ")"))
            .address();
    }

    @Override
    public Map<String, Long> constants() {
        return CONSTANTS;
    }

    @Override
    public StructLayout statusLayout() {
        return STATUS;
    }

    @Override
    public Map<String, Long> headerFacts() {
        final Map<String, Long> facts = new LinkedHashMap<>();
        AbiFacts.addCommon(this, facts);
        SYMBOLS.forEach((cName, symbol) -> facts.put("(void *) " + cName + " == (void *) &" + symbol, 1L));
        return facts;
    }

    private static Map<String, String> symbols() {
        final Map<String, String> symbols = new LinkedHashMap<>();
        for (final String object : List.of("COMM_WORLD", "COMM_SELF", "COMM_NULL", "GROUP_NULL", "GROUP_EMPTY",
            "WIN_NULL", "INFO_NULL", "ERRORS_RETURN", "ERRORS_ARE_FATAL", "DATATYPE_NULL", "OP_NULL")) {
            symbols.put("MPI_" + object, "ompi_mpi_" + object.toLowerCase());
        }
        symbols.put("MPI_REQUEST_NULL", "ompi_request_null");
        for (final MpiBasicType type : MpiBasicType.values()) {
            symbols.put(type.cName(), switch (type) {
                case LONG_LONG -> "ompi_mpi_long_long_int";
                default -> "ompi_mpi_" + type.cName().substring(4).toLowerCase();
            });
        }
        for (final MpiOp op : MpiOp.values()) {
            symbols.put(op.cName(), "ompi_mpi_op_" + op.cName().substring(4).toLowerCase());
        }
        return Map.copyOf(symbols);
    }

    private static Map<String, Long> constantTable() {
        final Map<String, Long> c = new LinkedHashMap<>();
        c.put("MPI_THREAD_SINGLE", 0L);
        c.put("MPI_THREAD_FUNNELED", 1L);
        c.put("MPI_THREAD_SERIALIZED", 2L);
        c.put("MPI_THREAD_MULTIPLE", 3L);
        c.put("MPI_MODE_NOCHECK", 1L);
        c.put("MPI_MODE_NOPRECEDE", 2L);
        c.put("MPI_MODE_NOPUT", 4L);
        c.put("MPI_MODE_NOSTORE", 8L);
        c.put("MPI_MODE_NOSUCCEED", 16L);
        c.put("MPI_LOCK_EXCLUSIVE", 1L);
        c.put("MPI_LOCK_SHARED", 2L);
        c.put("MPI_ANY_SOURCE", -1L);
        c.put("MPI_PROC_NULL", -2L);
        c.put("MPI_ANY_TAG", -1L);
        c.put("MPI_UNDEFINED", -32766L);
        c.put("MPI_COMM_TYPE_SHARED", 0L);
        c.put("MPI_MAX_ERROR_STRING", 256L);
        c.put("MPI_MAX_LIBRARY_VERSION_STRING", 256L);
        c.put("MPI_STATUS_IGNORE", 0L);
        c.put("MPI_IN_PLACE", 1L);
        c.put("MPI_IDENT", 0L);
        c.put("MPI_CONGRUENT", 1L);
        c.put("MPI_SIMILAR", 2L);
        c.put("MPI_UNEQUAL", 3L);
        final Object[] classes = {"MPI_SUCCESS", 0, "MPI_ERR_BUFFER", 1, "MPI_ERR_COUNT", 2, "MPI_ERR_TYPE", 3,
            "MPI_ERR_TAG", 4, "MPI_ERR_COMM", 5, "MPI_ERR_RANK", 6, "MPI_ERR_REQUEST", 7, "MPI_ERR_ROOT", 8,
            "MPI_ERR_GROUP", 9, "MPI_ERR_OP", 10, "MPI_ERR_TOPOLOGY", 11, "MPI_ERR_DIMS", 12, "MPI_ERR_ARG", 13,
            "MPI_ERR_UNKNOWN", 14, "MPI_ERR_TRUNCATE", 15, "MPI_ERR_OTHER", 16, "MPI_ERR_INTERN", 17,
            "MPI_ERR_IN_STATUS", 18, "MPI_ERR_PENDING", 19, "MPI_ERR_ASSERT", 22, "MPI_ERR_BASE", 24, "MPI_ERR_DISP",
            26, "MPI_ERR_INFO_KEY", 31, "MPI_ERR_INFO_NOKEY", 32, "MPI_ERR_INFO_VALUE", 33, "MPI_ERR_INFO", 34,
            "MPI_ERR_KEYVAL", 36, "MPI_ERR_LOCKTYPE", 37, "MPI_ERR_NAME", 38, "MPI_ERR_NO_MEM", 39, "MPI_ERR_NOT_SAME",
            40, "MPI_ERR_RMA_CONFLICT", 46, "MPI_ERR_RMA_SYNC", 47, "MPI_ERR_SIZE", 49, "MPI_ERR_UNSUPPORTED_OPERATION",
            52, "MPI_ERR_WIN", 53, "MPI_ERR_RMA_RANGE", 68, "MPI_ERR_RMA_ATTACH", 69, "MPI_ERR_RMA_FLAVOR", 70,
            "MPI_ERR_RMA_SHARED", 71};
        for (int i = 0; i < classes.length; i += 2) {
            c.put((String)classes[i], ((Integer)classes[i + 1]).longValue());
        }
        return Map.copyOf(c);
    }
}
