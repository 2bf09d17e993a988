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
    READ, WRITE, PUT, GET, RGA, CAS, FLUSH, FLUSH_LOCAL, FLUSH_ALL, WIN_SYNC, BARRIER, FENCE;

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
        return this == PUT || this == GET || this == RGA || this == CAS;
    }
}
