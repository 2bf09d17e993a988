package org.rma4j.litmus.gen;

/**
 * A statement of a generated program before it gets names: the kind, the remote process and
 * variable ({@code proc}, {@code var}; for flush the target process) and up to three local variable
 * indices (result / source, operand or compare, swap). Unused fields are -1.
 */
record Instr(Letter letter, int proc, int var, int a, int b, int c) {
    /** @return the instruction with process references renamed by {@code perm} (old index -> new). */
    Instr permute(final int[] perm) {
        return proc < 0 ? this : new Instr(letter, perm[proc], var, a, b, c);
    }

    /** @return a compact key; processes already renamed. */
    void key(final StringBuilder out) {
        out.append((char)('A' + letter.ordinal())).append(proc + 1).append(var + 1).append(a + 1).append(b + 1)
            .append(c + 1).append(',');
    }
}
