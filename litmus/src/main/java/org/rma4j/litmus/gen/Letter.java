package org.rma4j.litmus.gen;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The statement kinds the generator draws from. Local statements use the process's own variables,
 * remote ones any variable; every local read gets a fresh register and every local write a fresh
 * value (coreRMA section 6.1: "local writes should have distinct values").
 */
public enum Letter {
    READ, WRITE, PUT, GET, RGA, CAS, FLUSH, FLUSH_LOCAL, FLUSH_ALL, WIN_SYNC, BARRIER, FENCE,
    /** acc(Z, X, replace): an accumulate without result (replace, so that its order shows). */
    ACC,
    /** X = rga(Z, X, no_op): fetch_and_op NO_OP, an atomic read. */
    FOP,
    /** Direct accesses through shared_query: r = load(Z), store(Z, v), r = poll(Z, 10, 100). */
    LOAD, STORE, POLL,
    /** put_notify(Z, X, 1), X = get_notify(Z, 1), wait(q, 1), r = wait(any, any). */
    PUT_NOTIFY, GET_NOTIFY, WAIT, WAIT_ANY,
    /** post(q), start(q), complete, win_wait, win_test. */
    POST, START, COMPLETE, WIN_WAIT, WIN_TEST, LOCK_ALL, UNLOCK_ALL;

    /** The default alphabet: the coreRMA statements without the accumulate ones. */
    public static final Set<Letter> DEFAULT = EnumSet.of(READ, WRITE, PUT, GET, FLUSH);

    /** @return the name used on the command line, e.g. {@code flush_local}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param list comma-separated names, e.g. {@code read,write,put,get,flush}, or {@code all}.
     * @throws IllegalArgumentException for an unknown name.
     */
    public static Set<Letter> parse(final String list) {
        if (list.trim().equals("all")) {
            return EnumSet.allOf(Letter.class);
        }
        final EnumSet<Letter> set = EnumSet.noneOf(Letter.class);
        for (final String part : list.split(",")) {
            final String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            try {
                set.add(valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown statement kind '" + name + "'; known: "
                    + String.join(",", java.util.Arrays.stream(values()).map(Letter::text).toList()), e);
            }
        }
        if (set.isEmpty()) {
            throw new IllegalArgumentException("empty statement alphabet");
        }
        return set;
    }

    /** @return whether statements of this kind touch remote memory. */
    public boolean remote() {
        return switch (this) {
            case PUT, GET, RGA, CAS, ACC, FOP, LOAD, STORE, POLL, PUT_NOTIFY, GET_NOTIFY -> true;
            default -> false;
        };
    }
}
