package org.rma4j.bench.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The samples of one process from {@code perf report --stdio --no-children -n --sort comm,dso,sym -g none
 * --percent-limit 0 -t '<TAB>' --pid PID}: one {@link Entry} per (thread name, shared object, symbol), and the
 * groupings the profile report shows ({@link ThreadClass}, {@link Layer}).
 *
 * <p>Java frames are named by the JIT's map ({@code /tmp/perf-PID.map}, written by
 * {@code -XX:+DumpPerfMapAtExit}): perf shows them in the shared object {@code [JIT] tid PID} (older perf:
 * {@code perf-PID.map}) with names such as {@code void org.rma4j.shm.WaitStrategy.await(long)}; the same
 * method compiled more than once (tiers, recompilation) appears once per compilation and is merged here.
 */
public final class PerfReport {
    private static final Pattern PERCENT = Pattern.compile("\\s*[0-9.]+%\\s*");

    /** Which kind of thread a sample ran on, from its thread name ({@code comm}). */
    public enum ThreadClass {
        /**
         * The Java main thread (the launcher names it {@code java}) and rma4j's own threads ({@code rma4j-*}, but
         * not {@code rma4j-launcher-*} and {@code rma4j-bench-job}: the harness's threads in a rank's process
         * between fork and exec).
         */
        APPLICATION("application (main and rma4j threads)"),
        /** C1 and C2 compiler threads: warm-up and recompilation. */
        JIT_COMPILER("JIT compiler threads"),
        /** Garbage collector threads. */
        GC("GC threads"),
        /**
         * Every other thread: the VM thread (safepoints; the serial collector's work on 2 CPUs), service threads,
         * and the process before it became the rank JVM ({@code taskset}, {@code jspawnhelper}).
         */
        OTHER("other threads (VM thread, services, process start)");

        final String label;

        ThreadClass(final String label) {
            this.label = label;
        }

        static ThreadClass of(final String comm) {
            if (comm.equals("java") || comm.equals("main")
                || comm.startsWith("rma4j-") && !comm.startsWith("rma4j-launcher") && !comm.startsWith("rma4j-bench")) {
                return APPLICATION;
            }
            if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                return JIT_COMPILER;
            }
            if (comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.contains("GC Thread")) {
                return GC;
            }
            return OTHER;
        }
    }

    /** The layer a symbol belongs to. */
    public enum Layer {
        /** JIT-compiled code of an {@code org.rma4j} class (the report names the package). */
        RMA4J("rma4j (JIT)"),
        /** JIT-compiled code of the JDK ({@code java.*}, {@code jdk.*}, {@code sun.*}). */
        JDK("JDK (JIT)"),
        /** Other JIT-compiled Java code (libraries). */
        OTHER_JAVA("other Java (JIT)"),
        /** The template interpreter. */
        INTERPRETER("interpreter"),
        /** The JVM's generated code that is no method: stubs, adapters, vtable chunks, code not in the map. */
        JIT_STUBS("JVM stubs and unmapped JIT code"),
        /** The JVM itself ({@code libjvm.so}): runtime, GC, compilers, safepoints. */
        JVM("JVM (libjvm.so)"),
        /** The kernel: system calls, futex sleeps and wake-ups, scheduling, page faults, interrupts. */
        KERNEL("kernel"),
        /** libc and other native libraries. */
        NATIVE("libc, vDSO and other native code");

        final String label;

        Layer(final String label) {
            this.label = label;
        }
    }

    /**
     * One line of the report.
     *
     * @param samples samples of this (thread name, shared object, symbol).
     * @param comm    the thread name (at most 15 characters).
     * @param dso     the shared object, e.g. {@code libjvm.so}, {@code [kernel.kallsyms]}, {@code [JIT] tid 42}.
     * @param symbol  the symbol without perf's {@code [.]} / {@code [k]} prefix.
     * @param kernel  whether perf marked it {@code [k]}.
     */
    public record Entry(long samples, String comm, String dso, String symbol, boolean kernel) {
        /** @return this entry's layer. */
        public Layer layer() {
            if (kernel || dso.startsWith("[kernel") || dso.endsWith(".ko")) {
                return Layer.KERNEL;
            }
            if (jit()) {
                final String method = javaMethod(symbol);
                if (method == null) {
                    return symbol.equals("Interpreter") ? Layer.INTERPRETER : Layer.JIT_STUBS;
                }
                if (method.startsWith("org.rma4j.")) {
                    return Layer.RMA4J;
                }
                if (method.startsWith("java.") || method.startsWith("jdk.") || method.startsWith("sun.")
                    || method.startsWith("com.sun.")) {
                    return Layer.JDK;
                }
                return Layer.OTHER_JAVA;
            }
            return dso.equals("libjvm.so") ? Layer.JVM : Layer.NATIVE;
        }

        /** @return whether the symbol lies in the JIT's code cache (named by the perf map). */
        public boolean jit() {
            return dso.startsWith("[JIT]") || dso.startsWith("perf-") || dso.startsWith("/tmp/perf-");
        }

        /**
         * @return the group a symbol is counted in: the layer, and for rma4j's code its package (e.g.
         *         {@code rma4j (JIT) org.rma4j.shm}).
         */
        public String group() {
            final Layer layer = layer();
            if (layer == Layer.RMA4J) {
                final String method = javaMethod(symbol);
                final String type = method.substring(0, method.lastIndexOf('.'));
                return layer.label + " " + packageOf(type);
            }
            return layer.label;
        }
    }

    private final List<Entry> entries;

    private PerfReport(final List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Parses the text of {@code perf report -t '<TAB>' -n --sort comm,dso,sym}: lines of overhead, samples,
     * command, shared object and symbol separated by tabs; comment lines ({@code #}) and blank lines are
     * skipped.
     *
     * @throws IllegalArgumentException naming the line if a data line has not five fields.
     */
    public static PerfReport parse(final String text) {
        final List<Entry> entries = new ArrayList<>();
        for (final String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            final String[] fields = line.split("\t", -1);
            if (fields.length != 5 || !PERCENT.matcher(fields[0]).matches()) {
                throw new IllegalArgumentException("not a line of perf report -t TAB -n --sort comm,dso,sym: " + line);
            }
            final String symbol = fields[4].strip();
            final boolean kernel = symbol.startsWith("[k]");
            final String name = symbol.startsWith("[") && symbol.indexOf(']') == 2
                ? symbol.substring(3).strip()
                : symbol;
            entries
                .add(new Entry(Long.parseLong(fields[1].strip()), fields[2].strip(), fields[3].strip(), name, kernel));
        }
        return new PerfReport(entries);
    }

    /** @return one report of the entries of all {@code reports} (e.g. the ranks of a job but rank 0). */
    public static PerfReport merge(final List<PerfReport> reports) {
        return new PerfReport(reports.stream().flatMap(r -> r.entries.stream()).toList());
    }

    /** @return every line of the report. */
    public List<Entry> entries() {
        return entries;
    }

    /** @return the samples of every entry. */
    public long total() {
        return entries.stream().mapToLong(Entry::samples).sum();
    }

    /** @return the entries whose thread is of {@code threadClass}. */
    public PerfReport threads(final ThreadClass threadClass) {
        return new PerfReport(entries.stream().filter(e -> ThreadClass.of(e.comm()) == threadClass).toList());
    }

    /** @return samples per thread class, every class present, in declaration order. */
    public Map<ThreadClass, Long> byThreadClass() {
        final Map<ThreadClass, Long> shares = new LinkedHashMap<>();
        for (final ThreadClass c : ThreadClass.values()) {
            shares.put(c, 0L);
        }
        entries.forEach(e -> shares.merge(ThreadClass.of(e.comm()), e.samples(), Long::sum));
        return shares;
    }

    /** @return samples per {@link Entry#group()}, most first (ties by name). */
    public Map<String, Long> byGroup() {
        final Map<String, Long> groups = new LinkedHashMap<>();
        entries.forEach(e -> groups.merge(e.group(), e.samples(), Long::sum));
        return sorted(groups);
    }

    /**
     * @return the {@code limit} symbols with the most samples (a symbol's compilations and threads merged),
     *         each as a {@link Symbol}.
     */
    public List<Symbol> top(final int limit) {
        final Map<String, Symbol> symbols = new LinkedHashMap<>();
        for (final Entry e : entries) {
            final String key = e.symbol() + "\u0000" + e.group();
            symbols.merge(key, new Symbol(e.symbol(), e.group(), e.samples()),
                (a, b) -> new Symbol(a.name(), a.group(), a.samples() + b.samples()));
        }
        return symbols.values().stream()
            .sorted(Comparator.comparingLong(Symbol::samples).reversed().thenComparing(Symbol::name)).limit(limit)
            .toList();
    }

    /**
     * A symbol and its samples.
     *
     * @param name    the symbol.
     * @param group   its {@link Entry#group()}.
     * @param samples its samples.
     */
    public record Symbol(String name, String group, long samples) {
    }

    /**
     * @return the method of a perf map name such as {@code void a.b.C.m(long, int)} ({@code a.b.C.m}), or null
     *         if the name is none (a stub, the interpreter, an adapter).
     */
    static String javaMethod(final String symbol) {
        final int open = symbol.indexOf('(');
        if (open < 0 || !symbol.endsWith(")")) {
            return null;
        }
        final String head = symbol.substring(0, open);
        final String method = head.substring(head.lastIndexOf(' ') + 1);
        if (head.indexOf(' ') < 0 || method.indexOf('.') < 0) {
            return null;
        }
        return method;
    }

    /** @return the package of a class name, cut before its first capitalized part. */
    static String packageOf(final String type) {
        final String[] parts = type.split("\\.");
        final StringBuilder name = new StringBuilder();
        for (final String part : parts) {
            if (part.isEmpty() || Character.isUpperCase(part.charAt(0))) {
                break;
            }
            name.append(name.isEmpty() ? "" : ".").append(part);
        }
        return name.toString();
    }

    private static Map<String, Long> sorted(final Map<String, Long> counts) {
        final Map<String, Long> result = new LinkedHashMap<>();
        counts.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
            .forEach(e -> result.put(e.getKey(), e.getValue()));
        return result;
    }
}
