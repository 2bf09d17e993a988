package org.rma4j.litmus.syntax;

/**
 * Atomicity of the memory interactions of a statement (coreRMA section 3.2: every access is atomic
 * {@code a} or non-atomic {@code n}). A statement marked {@link #DEFAULT} takes the program's default,
 * which is {@link #ATOMIC} unless the header says {@code atomicity = nonatomic}.
 */
public enum Atomicity {
    DEFAULT, ATOMIC, NONATOMIC;

    /** @return this, or {@code programDefault} for {@link #DEFAULT}. */
    public Atomicity resolve(final Atomicity programDefault) {
        return this == DEFAULT ? programDefault : this;
    }
}
