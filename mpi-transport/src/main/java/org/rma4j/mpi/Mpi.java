package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The MPI library of this process: initialization, the predefined communicators, datatypes and
 * operations, and finalization. There is one per process ({@code MPI_Init_thread} may be called once).
 *
 * <h2>Thread level</h2>
 * {@link #init()} asks for {@link MpiThreadLevel#SERIALIZED} (or the level named by the system property
 * {@value #THREAD_LEVEL_PROP_NAME}): several threads of a process may call MPI (an application thread and a
 * progress thread of the runtime), never two at once. {@code MULTIPLE} is not the default because Open MPI
 * 4.1's only one-sided component that works between nodes over TCP, {@code osc/pt2pt}, refuses to create a
 * window under {@code MPI_THREAD_MULTIPLE} ({@code help-osc-pt2pt.txt: mpi-thread-multiple-not-supported}),
 * and {@code osc/rdma} needs an RDMA network. The caller serializes its calls (the binding takes no lock).
 *
 * <h2>Errors</h2>
 * After initialization the binding sets {@code MPI_ERRORS_RETURN} on {@code MPI_COMM_WORLD} and
 * {@code MPI_COMM_SELF} (communicators made from them inherit it, MPI-3.1 section 8.3.1) and on every window
 * it creates (windows do not inherit it, section 8.3.2); a failing call throws {@link MpiException} with the
 * error class and the implementation's text, and the job goes on where MPI allows it.
 */
public final class Mpi {
    /** System property naming the thread level {@link #init()} asks for (e.g. {@code MULTIPLE}). */
    public static final String THREAD_LEVEL_PROP_NAME = "rma4j.mpi.threadLevel";
    /** The level {@link #init()} asks for by default. */
    public static final MpiThreadLevel THREAD_LEVEL_DEFAULT = MpiThreadLevel.SERIALIZED;

    /** {@code MPI_ANY_SOURCE}, translated to the implementation's value by every call that takes a rank. */
    public static final int ANY_SOURCE = -1;
    /** {@code MPI_PROC_NULL}, translated likewise (Open MPI -2, MPICH -1). */
    public static final int PROC_NULL = -2;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = -1;
    /** {@code MPI_UNDEFINED} (a color of {@link MpiComm#split} that gives no communicator). */
    public static final int UNDEFINED = -32766;

    /** The buffer of {@code MPI_Get_library_version}: above every implementation's maximum. */
    private static final long LIBRARY_VERSION_BYTES = 16384;

    private static Mpi instance;

    private final MpiThreadLevel provided;
    private final MpiComm world;
    private final MpiComm self;

    private Mpi(final MpiThreadLevel provided) {
        this.provided = provided;
        this.world = new MpiComm(Predefined.COMM_WORLD, true);
        this.self = new MpiComm(Predefined.COMM_SELF, true);
    }

    /**
     * {@code MPI_Init_thread} at the level of {@value #THREAD_LEVEL_PROP_NAME}, default
     * {@link #THREAD_LEVEL_DEFAULT}.
     */
    public static Mpi init() {
        return initThread(
            MpiThreadLevel.valueOf(System.getProperty(THREAD_LEVEL_PROP_NAME, THREAD_LEVEL_DEFAULT.name())));
    }

    /**
     * {@code MPI_Init_thread(NULL, NULL, required, &provided)}, then {@code MPI_ERRORS_RETURN} on the world and
     * self communicators. Loads the library first ({@link MpiLibraryLocator}).
     *
     * @return the library; {@link #providedThreadLevel()} may be lower than {@code required}, as the standard
     *         allows.
     * @throws IllegalStateException if MPI was initialized before (by this call or otherwise) or finalized.
     */
    public static synchronized Mpi initThread(final MpiThreadLevel required) {
        if (instance != null || isInitialized()) {
            throw new IllegalStateException("MPI is already initialized (MPI_Init_thread may be called once)");
        }
        checkLibraryVersion();
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.INIT_THREAD.invokeExact(MemorySegment.NULL, MemorySegment.NULL,
                MpiNative.ABI.constant(required.cName()), scratch.int0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Init_thread", "required=" + required);
        }
        final MpiThreadLevel provided = threadLevel(scratch.int0());
        setErrorsReturn(Predefined.COMM_WORLD);
        setErrorsReturn(Predefined.COMM_SELF);
        instance = new Mpi(provided);
        return instance;
    }

    /**
     * @return the library, once {@link #initThread} returned.
     * @throws IllegalStateException before.
     */
    public static synchronized Mpi get() {
        if (instance == null) {
            throw new IllegalStateException("MPI is not initialized by this binding (Mpi.init)");
        }
        return instance;
    }

    /**
     * {@code MPI_Initialized}: whether {@code MPI_Init_thread} was called (also after finalization).
     */
    public static boolean isInitialized() {
        return flag(MpiNative.INITIALIZED, "MPI_Initialized");
    }

    /**
     * {@code MPI_Finalized}.
     */
    public static boolean isFinalized() {
        return flag(MpiNative.FINALIZED, "MPI_Finalized");
    }

    /**
     * @return the ABI of the loaded library.
     */
    public static MpiAbi abi() {
        return MpiNative.ABI;
    }

    /**
     * @return where the library was found and how.
     */
    public static MpiLibraryLocator.Location location() {
        return MpiNative.LOCATION;
    }

    /**
     * @return the level {@code MPI_Init_thread} provided.
     */
    public MpiThreadLevel providedThreadLevel() {
        return provided;
    }

    /**
     * {@code MPI_Query_thread}.
     */
    public MpiThreadLevel queryThread() {
        final Scratch scratch = Scratch.get();
        check(call1(MpiNative.QUERY_THREAD, scratch.int0), "MPI_Query_thread");
        return threadLevel(scratch.int0());
    }

    /**
     * @return {@code MPI_COMM_WORLD}.
     */
    public MpiComm world() {
        return world;
    }

    /**
     * @return {@code MPI_COMM_SELF}.
     */
    public MpiComm self() {
        return self;
    }

    /**
     * @return the predefined datatype.
     */
    public MpiDatatype datatype(final MpiBasicType type) {
        return Predefined.type(type);
    }

    /**
     * {@code MPI_Get_library_version} (allowed before initialization, MPI-3.1 section 8.1.1).
     */
    public static String libraryVersion() {
        try (Arena arena = Arena.ofConfined()) {
            // NOTE: not the ABI's MPI_MAX_LIBRARY_VERSION_STRING: this call also checks that the library is of the
            // chosen ABI, and a mismatched one writes up to its own maximum (MPICH 8192 bytes, Open MPI 256).
            final MemorySegment text = arena.allocate(LIBRARY_VERSION_BYTES);
            final MemorySegment length = arena.allocate(ValueLayout.JAVA_INT);
            check(call2(MpiNative.GET_LIBRARY_VERSION, text, length), "MPI_Get_library_version");
            return text.getString(0).strip();
        }
    }

    /**
     * {@code MPI_Wtime}: seconds since an arbitrary time in the past.
     */
    public double wtime() {
        try {
            return (double)MpiNative.WTIME.invokeExact();
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Abort}: ends every process of {@code comm}'s job (Open MPI and MPICH end the whole job) with
     * {@code errorCode} as the exit status where the launcher can return it. Does not return.
     */
    public void abort(final MpiComm comm, final int errorCode) {
        try {
            final int rc = (int)MpiNative.ABORT.invokeExact(comm.handle(), errorCode);
            throw Errors.of(rc, "MPI_Abort", "errorcode=" + errorCode);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code MPI_Finalize} (named so because {@code finalize} is {@link Object}'s). Collective over the world.
     */
    public synchronized void finalizeMpi() {
        try {
            check((int)MpiNative.FINALIZE.invokeExact(), "MPI_Finalize");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    public String toString() {
        return MpiNative.ABI.name() + " (" + MpiNative.LOCATION.path() + "), thread level " + provided;
    }

    static void check(final int rc, final String call) {
        if (rc != 0) {
            throw Errors.of(rc, call, "");
        }
    }

    static int call1(final java.lang.invoke.MethodHandle handle, final MemorySegment out) {
        try {
            return (int)handle.invokeExact(out);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static int call2(final java.lang.invoke.MethodHandle handle, final MemorySegment a, final MemorySegment b) {
        try {
            return (int)handle.invokeExact(a, b);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static boolean flag(final java.lang.invoke.MethodHandle handle, final String call) {
        final Scratch scratch = Scratch.get();
        check(call1(handle, scratch.int0), call);
        return scratch.int0() != 0;
    }

    /** Refuses a library of another implementation than the ABI chosen: its calls would misread handles. */
    private static void checkLibraryVersion() {
        final String version = libraryVersion();
        if (!version.startsWith(MpiNative.ABI.name())) {
            throw new IllegalStateException(
                MpiNative.LOCATION.path() + " is not " + MpiNative.ABI.name() + " (" + MpiNative.LOCATION.how()
                    + "): its MPI_Get_library_version is '" + version.lines().findFirst().orElse("") + "'");
        }
    }

    private static void setErrorsReturn(final long comm) {
        try {
            check((int)MpiNative.COMM_SET_ERRHANDLER.invokeExact(comm, Predefined.ERRORS_RETURN),
                "MPI_Comm_set_errhandler");
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static MpiThreadLevel threadLevel(final int nativeLevel) {
        for (final MpiThreadLevel level : MpiThreadLevel.values()) {
            if (MpiNative.ABI.constant(level.cName()) == nativeLevel) {
                return level;
            }
        }
        throw new IllegalStateException("unknown thread level " + nativeLevel);
    }
}
