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
 * The ABI of MPICH 3.x / 4.x (read from Debian's {@code /usr/include/x86_64-linux-gnu/mpich/mpi.h}, MPICH
 * 4.0.2): handles are {@code int}s ({@code typedef int MPI_Comm}), predefined objects are integer constants
 * ({@code #define MPI_COMM_WORLD ((MPI_Comm)0x44000000)}), and {@code MPI_Status} is
 *
 * <pre>
 *   0          4                     8        12       16       20
 *   +----------+---------------------+--------+--------+--------+
 *   | count_lo | count_hi_and_cancel.| SOURCE | TAG    | ERROR  |
 *   +----------+---------------------+--------+--------+--------+
 * </pre>
 */
final class MpichAbi implements MpiAbi {
    private static final StructLayout STATUS = MemoryLayout
        .structLayout(ValueLayout.JAVA_INT.withName("count_lo"),
            ValueLayout.JAVA_INT.withName("count_hi_and_cancelled"), ValueLayout.JAVA_INT.withName("MPI_SOURCE"),
            ValueLayout.JAVA_INT.withName("MPI_TAG"), ValueLayout.JAVA_INT.withName("MPI_ERROR"))
        .withName("MPI_Status");

    /** {@code mpi.h} name -> the integer its macro expands to (as a signed C int). */
    private static final Map<String, Long> HANDLES = handleTable();

    private static final Map<String, Long> CONSTANTS = constantTable();

    @Override
    public String name() {
        return "MPICH";
    }

    @Override
    public List<String> libraryNames() {
        return List.of("libmpich.so.12", "libmpich.so");
    }

    @Override
    public List<String> compilerWrappers() {
        return List.of("mpicc.mpich", "mpicc");
    }

    @Override
    public List<String> linkLineCommand(final String wrapper) {
        return List.of(wrapper, "-show");
    }

    @Override
    public List<String> libraryDirectories(final String output) {
        // e.g. "gcc -Wl,-z,relro -I/usr/include/x86_64-linux-gnu/mpich -L/usr/lib/x86_64-linux-gnu -lmpich"
        final List<String> directories = new ArrayList<>();
        boolean linksMpich = false;
        for (final String word : output.strip().split("\\s+")) {
            if (word.startsWith("-L") && word.length() > 2) {
                directories.add(word.substring(2));
            }
            linksMpich |= word.equals("-lmpich");
        }
        return linksMpich ? directories : List.of();
    }

    @Override
    public boolean launched(final Map<String, String> environment) {
        return environment.containsKey("PMI_RANK") && !environment.containsKey("OMPI_COMM_WORLD_RANK");
    }

    @Override
    public ValueLayout handleLayout() {
        return ValueLayout.JAVA_INT;
    }

    @Override
    public long predefinedHandle(final String cName, final SymbolLookup library) {
        final Long value = HANDLES.get(cName);
        if (value == null) {
            throw new IllegalArgumentException("no MPICH handle known for " + cName);
        }
        return value;
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
        HANDLES.forEach((cName, value) -> facts.put("(int) " + cName, value));
        return facts;
    }

    private static Map<String, Long> handleTable() {
        final Map<String, Long> h = new LinkedHashMap<>();
        final Object[] objects = {"MPI_COMM_WORLD", 0x44000000, "MPI_COMM_SELF", 0x44000001, "MPI_COMM_NULL",
            0x04000000, "MPI_GROUP_NULL", 0x08000000, "MPI_GROUP_EMPTY", 0x48000000, "MPI_REQUEST_NULL", 0x2c000000,
            "MPI_WIN_NULL", 0x20000000, "MPI_INFO_NULL", 0x1c000000, "MPI_ERRORS_ARE_FATAL", 0x54000000,
            "MPI_ERRORS_RETURN", 0x54000001, "MPI_DATATYPE_NULL", 0x0c000000, "MPI_OP_NULL", 0x18000000, "MPI_BYTE",
            0x4c00010d, "MPI_CHAR", 0x4c000101, "MPI_SHORT", 0x4c000203, "MPI_INT", 0x4c000405, "MPI_LONG", 0x4c000807,
            "MPI_LONG_LONG", 0x4c000809, "MPI_UNSIGNED", 0x4c000406, "MPI_UNSIGNED_LONG", 0x4c000808, "MPI_FLOAT",
            0x4c00040a, "MPI_DOUBLE", 0x4c00080b, "MPI_INT8_T", 0x4c000137, "MPI_INT16_T", 0x4c000238, "MPI_INT32_T",
            0x4c000439, "MPI_INT64_T", 0x4c00083a, "MPI_UINT8_T", 0x4c00013b, "MPI_UINT16_T", 0x4c00023c,
            "MPI_UINT32_T", 0x4c00043d, "MPI_UINT64_T", 0x4c00083e, "MPI_AINT", 0x4c000843, "MPI_FLOAT_INT", 0x8c000000,
            "MPI_DOUBLE_INT", 0x8c000001, "MPI_LONG_INT", 0x8c000002, "MPI_SHORT_INT", 0x8c000003, "MPI_2INT",
            0x4c000816};
        for (int i = 0; i < objects.length; i += 2) {
            h.put((String)objects[i], ((Integer)objects[i + 1]).longValue());
        }
        final Object[] ops = {"MPI_MAX", 0x58000001, "MPI_MIN", 0x58000002, "MPI_SUM", 0x58000003, "MPI_PROD",
            0x58000004, "MPI_LAND", 0x58000005, "MPI_BAND", 0x58000006, "MPI_LOR", 0x58000007, "MPI_BOR", 0x58000008,
            "MPI_LXOR", 0x58000009, "MPI_BXOR", 0x5800000a, "MPI_MINLOC", 0x5800000b, "MPI_MAXLOC", 0x5800000c,
            "MPI_REPLACE", 0x5800000d, "MPI_NO_OP", 0x5800000e};
        for (int i = 0; i < ops.length; i += 2) {
            h.put((String)ops[i], ((Integer)ops[i + 1]).longValue());
        }
        return Map.copyOf(h);
    }

    private static Map<String, Long> constantTable() {
        final Map<String, Long> c = new LinkedHashMap<>();
        final Object[] values = {"MPI_THREAD_SINGLE", 0, "MPI_THREAD_FUNNELED", 1, "MPI_THREAD_SERIALIZED", 2,
            "MPI_THREAD_MULTIPLE", 3, "MPI_MODE_NOCHECK", 1024, "MPI_MODE_NOSTORE", 2048, "MPI_MODE_NOPUT", 4096,
            "MPI_MODE_NOPRECEDE", 8192, "MPI_MODE_NOSUCCEED", 16384, "MPI_LOCK_EXCLUSIVE", 234, "MPI_LOCK_SHARED", 235,
            "MPI_ANY_SOURCE", -2, "MPI_PROC_NULL", -1, "MPI_ANY_TAG", -1, "MPI_UNDEFINED", -32766,
            "MPI_COMM_TYPE_SHARED", 1, "MPI_MAX_ERROR_STRING", 512, "MPI_MAX_LIBRARY_VERSION_STRING", 8192,
            "MPI_STATUS_IGNORE", 1, "MPI_IN_PLACE", -1, "MPI_IDENT", 0, "MPI_CONGRUENT", 1, "MPI_SIMILAR", 2,
            "MPI_UNEQUAL", 3,
            // error classes
            "MPI_SUCCESS", 0, "MPI_ERR_BUFFER", 1, "MPI_ERR_COUNT", 2, "MPI_ERR_TYPE", 3, "MPI_ERR_TAG", 4,
            "MPI_ERR_COMM", 5, "MPI_ERR_RANK", 6, "MPI_ERR_ROOT", 7, "MPI_ERR_GROUP", 8, "MPI_ERR_OP", 9,
            "MPI_ERR_TOPOLOGY", 10, "MPI_ERR_DIMS", 11, "MPI_ERR_ARG", 12, "MPI_ERR_UNKNOWN", 13, "MPI_ERR_TRUNCATE",
            14, "MPI_ERR_OTHER", 15, "MPI_ERR_INTERN", 16, "MPI_ERR_IN_STATUS", 17, "MPI_ERR_PENDING", 18,
            "MPI_ERR_REQUEST", 19, "MPI_ERR_INFO", 28, "MPI_ERR_INFO_KEY", 29, "MPI_ERR_INFO_VALUE", 30,
            "MPI_ERR_INFO_NOKEY", 31, "MPI_ERR_NAME", 33, "MPI_ERR_NO_MEM", 34, "MPI_ERR_NOT_SAME", 35,
            "MPI_ERR_UNSUPPORTED_OPERATION", 44, "MPI_ERR_WIN", 45, "MPI_ERR_BASE", 46, "MPI_ERR_LOCKTYPE", 47,
            "MPI_ERR_KEYVAL", 48, "MPI_ERR_RMA_CONFLICT", 49, "MPI_ERR_RMA_SYNC", 50, "MPI_ERR_SIZE", 51,
            "MPI_ERR_DISP", 52, "MPI_ERR_ASSERT", 53, "MPI_ERR_RMA_RANGE", 55, "MPI_ERR_RMA_ATTACH", 56,
            "MPI_ERR_RMA_SHARED", 57, "MPI_ERR_RMA_FLAVOR", 58, "MPI_ERR_PROC_ABORTED", 76, "MPIX_ERR_PROC_FAILED",
            101};
        for (int i = 0; i < values.length; i += 2) {
            c.put((String)values[i], ((Integer)values[i + 1]).longValue());
        }
        return Map.copyOf(c);
    }
}
