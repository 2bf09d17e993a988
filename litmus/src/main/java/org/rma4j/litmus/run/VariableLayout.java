package org.rma4j.litmus.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.Datatype;
import org.rma4j.litmus.model.Value;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.VarType;

/**
 * Where each litmus variable lives in rma4j: one window of displacement unit 1; a variable owned by
 * process p starts at an 8-byte aligned byte displacement of p's part, in declaration order, and takes
 * {@code type bytes x count} bytes (a {@code long[128]} is 1 KiB).
 *
 * <p>Values are read and written as longs: a one-element variable with a volatile access of its type
 * (so the JIT keeps program order, as rule LO assumes), a payload element by element; a payload whose
 * elements differ (a torn transfer) reads as {@link Value#TORN}.
 */
final class VariableLayout {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    private static final VarHandle DOUBLE = ValueLayout.JAVA_DOUBLE.varHandle();

    private final Map<String, Long> offset = new HashMap<>();
    private final Map<String, Program.Variable> variable = new HashMap<>();
    private final long[] bytes;

    VariableLayout(final Program program) {
        bytes = new long[program.processCount()];
        for (final Program.Variable v : program.variables()) {
            variable.put(v.name(), v);
            offset.put(v.name(), bytes[v.owner()]);
            bytes[v.owner()] += (v.bytes() + 7) & ~7L;
        }
    }

    int owner(final String name) {
        return variable.get(name).owner();
    }

    /** @return the target displacement (bytes, displacement unit 1) of the variable in its owner's part. */
    long displacement(final String name) {
        return offset.get(name);
    }

    /** @return byte offset of the variable in its owner's part. */
    long offset(final String name) {
        return offset.get(name);
    }

    /** @return the variable's bytes in its owner's part. */
    MemorySegment slice(final MemorySegment part, final String name) {
        return part.asSlice(offset(name), variable.get(name).bytes());
    }

    /** @return the MPI datatype of the variable's elements. */
    Datatype datatype(final String name) {
        return switch (variable.get(name).type()) {
            case LONG -> Datatype.LONG;
            case INT -> Datatype.INT;
            case SHORT -> Datatype.SHORT;
            case DOUBLE -> Datatype.DOUBLE;
        };
    }

    /** @return bytes of process {@code proc}'s part (at least 8: a zero-size part is legal but pointless). */
    long windowBytes(final int proc) {
        return Math.max(8, bytes[proc]);
    }

    /** @return the variables {@code proc} owns, in displacement order. */
    static List<Program.Variable> owned(final Program program, final int proc) {
        return program.variablesOf(proc);
    }

    /** @return the variable's value in {@code part} (its owner's part), {@link Value#TORN} if its elements differ. */
    long read(final MemorySegment part, final String name) {
        final Program.Variable v = variable.get(name);
        final long at = offset(name);
        final long first = element(part, at, v.type(), true);
        for (int i = 1; i < v.count(); i++) {
            if (element(part, at + (long)i * v.type().bytes(), v.type(), false) != first) {
                return Value.TORN;
            }
        }
        return first;
    }

    /** Writes {@code value} to every element of the variable in {@code part}. */
    void write(final MemorySegment part, final String name, final long value) {
        final Program.Variable v = variable.get(name);
        final long at = offset(name);
        for (int i = 0; i < v.count(); i++) {
            final long o = at + (long)i * v.type().bytes();
            switch (v.type()) {
                case LONG -> LONG.setVolatile(part, o, value);
                case INT -> INT.setVolatile(part, o, (int)value);
                case SHORT -> SHORT.setVolatile(part, o, (short)value);
                case DOUBLE -> DOUBLE.setVolatile(part, o, (double)value);
            }
        }
    }

    private static long element(final MemorySegment part, final long o, final VarType type,
        final boolean volatileRead) {
        return switch (type) {
            case LONG -> volatileRead ? (long)LONG.getVolatile(part, o) : part.get(ValueLayout.JAVA_LONG, o);
            case INT -> volatileRead ? (int)INT.getVolatile(part, o) : part.get(ValueLayout.JAVA_INT, o);
            case SHORT -> volatileRead ? (short)SHORT.getVolatile(part, o) : part.get(ValueLayout.JAVA_SHORT, o);
            case DOUBLE ->
                (long)(volatileRead ? (double)DOUBLE.getVolatile(part, o) : part.get(ValueLayout.JAVA_DOUBLE, o));
        };
    }
}
