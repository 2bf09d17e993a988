package org.rma4j.examples.notified;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The synchronization schemes that Belli and Hoefler, "Notified Access: Extending Remote Memory Access
 * Programming Models for Producer-Consumer Synchronization" (IPDPS 2015), compare in sections V and
 * VI. Each program of this package implements a subset of them and names them on its command line by
 * {@link #label()}.
 */
public enum Sync {
    /** Notified Access: a notified put (or accumulate) matched by a persistent request at the target (section III). */
    NOTIFIED("notified"),
    /**
     * Passive target: put, flush, then a flag written by an atomic operation and flushed; the target
     * polls the flag with fetch_and_op(NO_OP) (Figure 2c, the protocol with the extra round trip).
     */
    PUT_FLUSH("putflush"),
    /** Two-sided message passing: send and receive with a tag. */
    SEND_RECV("sendrecv"),
    /** General active target synchronization: post / start / complete / wait (MPI-3.1 section 11.5.2). */
    PSCW("pscw"),
    /** Fence: a collective synchronization over the whole window group (MPI-3.1 section 11.5.1). */
    FENCE("fence");

    /** The argument that selects every variant a program supports. */
    public static final String ALL = "all";

    private final String label;

    Sync(final String label) {
        this.label = label;
    }

    /**
     * @return the name on the command line and in output lines, e.g. {@code putflush}.
     */
    public String label() {
        return label;
    }

    /**
     * The variants selected by a command-line argument: {@link #ALL} or one label.
     *
     * @param argument  the argument, case-insensitive, surrounding blanks ignored.
     * @param supported the variants the program implements, in the order to run them.
     * @return the selected variants, in the order of {@code supported}.
     * @throws IllegalArgumentException for an unknown label or one the program does not implement.
     */
    public static List<Sync> select(final String argument, final List<Sync> supported) {
        final String wanted = argument.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals(ALL)) {
            return List.copyOf(supported);
        }
        for (final Sync sync : supported) {
            if (sync.label.equals(wanted)) {
                return List.of(sync);
            }
        }
        throw new IllegalArgumentException(
            "unknown variant '" + argument + "'; expected " + ALL + " or one of " + labels(supported));
    }

    /**
     * @return the labels of {@code variants} separated by {@code |}, for usage messages.
     */
    public static String labels(final List<Sync> variants) {
        return variants.stream().map(Sync::label).collect(Collectors.joining("|"));
    }
}
