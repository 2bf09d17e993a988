package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The downcall handles into the MPI library: one {@link MethodHandle} per function, created once when this
 * class initializes, in {@code static final} fields so that the JIT compiles each call to a direct call of
 * the native function.
 *
 * <p>Every handle has the Java type its C prototype gives with handles as {@code long}: for Open MPI a
 * handle argument is passed as a 64-bit integer (the pointer's bits), for MPICH the handle is narrowed to
 * the {@code int} the library takes ({@link MpiAbi#handleLayout()}). Pointers ({@code void *}, out
 * parameters) are {@link MemorySegment}s; {@code MPI_Aint} is {@code long}.
 *
 * <p>The library is opened with {@code dlopen(RTLD_NOW | RTLD_GLOBAL)} before its symbols are looked up:
 * Open MPI loads its components ({@code mca_*.so}) with {@code dlopen} and they resolve symbols of
 * {@code libmpi} and {@code libopen-pal} in the global namespace (mpi4py opens the library the same way).
 *
 * <p>Before that, the environment variable {@value #UCX_ERROR_SIGNALS} is set to the empty list unless the
 * process has it already: UCX (linked by Debian's {@code libmpich}, loaded by Open MPI's {@code pml/ucx})
 * installs its own {@code SIGSEGV} handler when it loads, over the JVM's, and the JVM relies on
 * {@code SIGSEGV} for implicit null checks and safepoint polls in compiled code: the first
 * {@link NullPointerException} of compiled code would then end the process in UCX's "Caught signal 11"
 * report. (The JDK's own remedy, preloading {@code libjsig.so}, works too but needs the command line.)
 */
final class MpiNative {
    // Signature letters: I int, L long (MPI_Aint), P pointer, H handle.
    private static final int I = 0;
    private static final int L = 1;
    private static final int P = 2;
    private static final int H = 3;

    /** UCX's list of signals it handles (default {@code ILL,SEGV,BUS,FPE}). */
    static final String UCX_ERROR_SIGNALS = "UCX_ERROR_SIGNALS";

    private static final int RTLD_NOW = 2;
    private static final int RTLD_GLOBAL = 0x100;

    static final MpiLibraryLocator.Location LOCATION = MpiLibraryLocator.locate();
    static final MpiAbi ABI = LOCATION.abi();
    static final SymbolLookup LIBRARY = open(LOCATION);
    private static final Linker LINKER = Linker.nativeLinker();

    // Environment (MPI-3.1 chapter 8, section 12.4.3)
    static final MethodHandle INIT_THREAD = fn("MPI_Init_thread", P, P, I, P);
    static final MethodHandle FINALIZE = fn("MPI_Finalize");
    static final MethodHandle INITIALIZED = fn("MPI_Initialized", P);
    static final MethodHandle FINALIZED = fn("MPI_Finalized", P);
    static final MethodHandle QUERY_THREAD = fn("MPI_Query_thread", P);
    static final MethodHandle ABORT = fn("MPI_Abort", H, I);
    static final MethodHandle ERROR_CLASS = fn("MPI_Error_class", I, P);
    static final MethodHandle ERROR_STRING = fn("MPI_Error_string", I, P, P);
    static final MethodHandle COMM_SET_ERRHANDLER = fn("MPI_Comm_set_errhandler", H, H);
    static final MethodHandle WIN_SET_ERRHANDLER = fn("MPI_Win_set_errhandler", H, H);
    static final MethodHandle GET_LIBRARY_VERSION = fn("MPI_Get_library_version", P, P);
    static final MethodHandle WTIME = LINKER.downcallHandle(symbol("MPI_Wtime"),
        FunctionDescriptor.of(ValueLayout.JAVA_DOUBLE));
    static final MethodHandle GET_ADDRESS = fn("MPI_Get_address", P, P);
    static final MethodHandle INFO_CREATE = fn("MPI_Info_create", P);
    static final MethodHandle INFO_SET = fn("MPI_Info_set", H, P, P);
    static final MethodHandle INFO_FREE = fn("MPI_Info_free", P);

    // Communicators and groups (chapter 6)
    static final MethodHandle COMM_RANK = fn("MPI_Comm_rank", H, P);
    static final MethodHandle COMM_SIZE = fn("MPI_Comm_size", H, P);
    static final MethodHandle COMM_DUP = fn("MPI_Comm_dup", H, P);
    static final MethodHandle COMM_SPLIT = fn("MPI_Comm_split", H, I, I, P);
    static final MethodHandle COMM_SPLIT_TYPE = fn("MPI_Comm_split_type", H, I, I, H, P);
    static final MethodHandle COMM_FREE = fn("MPI_Comm_free", P);
    static final MethodHandle COMM_GROUP = fn("MPI_Comm_group", H, P);
    static final MethodHandle GROUP_INCL = fn("MPI_Group_incl", H, I, P, P);
    static final MethodHandle GROUP_TRANSLATE_RANKS = fn("MPI_Group_translate_ranks", H, I, P, H, P);
    static final MethodHandle GROUP_SIZE = fn("MPI_Group_size", H, P);
    static final MethodHandle GROUP_RANK = fn("MPI_Group_rank", H, P);
    static final MethodHandle GROUP_FREE = fn("MPI_Group_free", P);

    // Collectives (chapter 5) and point-to-point (chapter 3)
    static final MethodHandle BARRIER = fn("MPI_Barrier", H);
    static final MethodHandle BCAST = fn("MPI_Bcast", P, I, H, I, H);
    static final MethodHandle ALLREDUCE = fn("MPI_Allreduce", P, P, I, H, H, H);
    static final MethodHandle ALLGATHER = fn("MPI_Allgather", P, I, H, P, I, H, H);
    static final MethodHandle ALLGATHERV = fn("MPI_Allgatherv", P, I, H, P, P, P, H, H);
    static final MethodHandle IBARRIER = fn("MPI_Ibarrier", H, P);
    static final MethodHandle IALLGATHER = fn("MPI_Iallgather", P, I, H, P, I, H, H, P);
    static final MethodHandle IALLGATHERV = fn("MPI_Iallgatherv", P, I, H, P, P, P, H, H, P);
    static final MethodHandle SEND = fn("MPI_Send", P, I, H, I, I, H);
    static final MethodHandle RECV = fn("MPI_Recv", P, I, H, I, I, H, P);
    static final MethodHandle ISEND = fn("MPI_Isend", P, I, H, I, I, H, P);
    static final MethodHandle IRECV = fn("MPI_Irecv", P, I, H, I, I, H, P);
    static final MethodHandle TEST = fn("MPI_Test", P, P, P);
    static final MethodHandle WAIT = fn("MPI_Wait", P, P);
    static final MethodHandle IPROBE = fn("MPI_Iprobe", I, I, H, P, P);
    static final MethodHandle GET_COUNT = fn("MPI_Get_count", P, H, P);

    // Window creation (section 11.2)
    static final MethodHandle WIN_ALLOCATE = fn("MPI_Win_allocate", L, I, H, H, P, P);
    static final MethodHandle WIN_ALLOCATE_SHARED = fn("MPI_Win_allocate_shared", L, I, H, H, P, P);
    static final MethodHandle WIN_SHARED_QUERY = fn("MPI_Win_shared_query", H, I, P, P, P);
    static final MethodHandle WIN_CREATE = fn("MPI_Win_create", P, L, I, H, H, P);
    static final MethodHandle WIN_CREATE_DYNAMIC = fn("MPI_Win_create_dynamic", H, H, P);
    static final MethodHandle WIN_ATTACH = fn("MPI_Win_attach", H, P, L);
    static final MethodHandle WIN_DETACH = fn("MPI_Win_detach", H, P);
    static final MethodHandle WIN_FREE = fn("MPI_Win_free", P);
    static final MethodHandle WIN_GET_GROUP = fn("MPI_Win_get_group", H, P);

    // Communication calls (section 11.3)
    static final MethodHandle PUT = fn("MPI_Put", P, I, H, I, L, I, H, H);
    static final MethodHandle GET = fn("MPI_Get", P, I, H, I, L, I, H, H);
    static final MethodHandle ACCUMULATE = fn("MPI_Accumulate", P, I, H, I, L, I, H, H, H);
    static final MethodHandle GET_ACCUMULATE = fn("MPI_Get_accumulate", P, I, H, P, I, H, I, L, I, H, H, H);
    static final MethodHandle FETCH_AND_OP = fn("MPI_Fetch_and_op", P, P, H, I, L, H, H);
    static final MethodHandle COMPARE_AND_SWAP = fn("MPI_Compare_and_swap", P, P, P, H, I, L, H);
    static final MethodHandle RPUT = fn("MPI_Rput", P, I, H, I, L, I, H, H, P);
    static final MethodHandle RGET = fn("MPI_Rget", P, I, H, I, L, I, H, H, P);
    static final MethodHandle RACCUMULATE = fn("MPI_Raccumulate", P, I, H, I, L, I, H, H, H, P);
    static final MethodHandle RGET_ACCUMULATE = fn("MPI_Rget_accumulate", P, I, H, P, I, H, I, L, I, H, H, H, P);

    // Synchronization calls (section 11.5)
    static final MethodHandle WIN_FENCE = fn("MPI_Win_fence", I, H);
    static final MethodHandle WIN_POST = fn("MPI_Win_post", H, I, H);
    static final MethodHandle WIN_START = fn("MPI_Win_start", H, I, H);
    static final MethodHandle WIN_COMPLETE = fn("MPI_Win_complete", H);
    static final MethodHandle WIN_WAIT = fn("MPI_Win_wait", H);
    static final MethodHandle WIN_TEST = fn("MPI_Win_test", H, P);
    static final MethodHandle WIN_LOCK = fn("MPI_Win_lock", I, I, I, H);
    static final MethodHandle WIN_UNLOCK = fn("MPI_Win_unlock", I, H);
    static final MethodHandle WIN_LOCK_ALL = fn("MPI_Win_lock_all", I, H);
    static final MethodHandle WIN_UNLOCK_ALL = fn("MPI_Win_unlock_all", H);
    static final MethodHandle WIN_FLUSH = fn("MPI_Win_flush", I, H);
    static final MethodHandle WIN_FLUSH_ALL = fn("MPI_Win_flush_all", H);
    static final MethodHandle WIN_FLUSH_LOCAL = fn("MPI_Win_flush_local", I, H);
    static final MethodHandle WIN_FLUSH_LOCAL_ALL = fn("MPI_Win_flush_local_all", H);
    static final MethodHandle WIN_SYNC = fn("MPI_Win_sync", H);

    private MpiNative() {
    }

    /** @return the handle of a predefined object by its {@code mpi.h} name. */
    static long predefined(final String cName) {
        return ABI.predefinedHandle(cName, LIBRARY);
    }

    private static SymbolLookup open(final MpiLibraryLocator.Location location) {
        final Linker linker = Linker.nativeLinker();
        try (Arena arena = Arena.ofConfined()) {
            final MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT));
            // NOTE: before dlopen: UCX reads it in its library constructor. Overwrite 0 keeps a value the user set.
            final int unused = (int)setenv.invokeExact(arena.allocateFrom(UCX_ERROR_SIGNALS), arena.allocateFrom(""),
                0);
            final MethodHandle dlopen = linker.downcallHandle(linker.defaultLookup().find("dlopen").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            final MemorySegment handle = (MemorySegment)dlopen
                .invokeExact(arena.allocateFrom(location.path().toString()), RTLD_NOW | RTLD_GLOBAL);
            if (handle.equals(MemorySegment.NULL)) {
                throw new IllegalStateException(
                    "dlopen(" + location.path() + ") failed: " + dlerror(linker) + " (" + location.how() + ")");
            }
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
        return SymbolLookup.libraryLookup(location.path(), Arena.global());
    }

    private static String dlerror(final Linker linker) throws Throwable {
        final MethodHandle dlerror = linker.downcallHandle(linker.defaultLookup().find("dlerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS));
        final MemorySegment message = (MemorySegment)dlerror.invokeExact();
        return message.equals(MemorySegment.NULL) ? "unknown error" : message.reinterpret(4096).getString(0);
    }

    private static MemorySegment symbol(final String name) {
        return LIBRARY.find(name)
            .orElseThrow(() -> new IllegalStateException(LOCATION.path() + " (" + ABI.name() + ") exports no " + name));
    }

    /**
     * @return the downcall handle of {@code int name(args...)}, handles typed {@code long} in Java.
     */
    private static MethodHandle fn(final String name, final int... args) {
        final MemoryLayout[] nativeArgs = new MemoryLayout[args.length];
        final Class<?>[] javaArgs = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            nativeArgs[i] = switch (args[i]) {
                case I -> ValueLayout.JAVA_INT;
                case L -> ValueLayout.JAVA_LONG;
                case P -> ValueLayout.ADDRESS;
                default -> ABI.handleLayout();
            };
            javaArgs[i] = switch (args[i]) {
                case I -> int.class;
                case P -> MemorySegment.class;
                default -> long.class;
            };
        }
        final MethodHandle downcall = LINKER.downcallHandle(symbol(name),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, nativeArgs));
        // MPICH: the handle arguments are ints; narrow the long a caller passes (the identity for Open MPI).
        return MethodHandles.explicitCastArguments(downcall, MethodType.methodType(int.class, javaArgs));
    }
}
