package org.rma4j.litmus.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.rma4j.litmus.gen.Generator;
import org.rma4j.litmus.gen.Letter;
import org.rma4j.litmus.syntax.Printer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code litmus gen -o DIR}: every program up to a bound, deduplicated, as litmus files.
 */
@Command(name = "gen", mixinStandardHelpOptions = true, description = "Generate every litmus program up to a bound (processes, statements per process, statement"
    + " alphabet), deduplicated up to renaming, keeping those that exercise a rule of the model.")
final class GenCommand implements Callable<Integer> {
    @Option(names = {"-o", "--out"}, required = true, description = "Directory for the .litmus files.")
    Path out;

    @Option(names = "--procs", defaultValue = "2", description = "Largest number of processes (default ${DEFAULT-VALUE}).")
    int procs;

    @Option(names = "--min-procs", defaultValue = "1", description = "Smallest number of processes (default ${DEFAULT-VALUE}).")
    int minProcs;

    @Option(names = "--stmts", defaultValue = "2", description = "Largest number of statements per process (default ${DEFAULT-VALUE}).")
    int stmts;

    @Option(names = "--vars", defaultValue = "1", description = "Variables each process owns (default ${DEFAULT-VALUE}).")
    int vars;

    @Option(names = "--alphabet", defaultValue = "read,write,put,get,flush", description = "Statement kinds: read, write, put, get, rga, cas, flush, flush_local, flush_all, win_sync,"
        + " barrier, fence, acc, fop, load, store, poll, put_notify, get_notify, wait, wait_any, post, start,"
        + " complete, win_wait, win_test, lock_all, unlock_all, or all (default ${DEFAULT-VALUE}).")
    String alphabet;

    @Option(names = "--type", defaultValue = "long", description = "Element type of the variables: long, int, short,"
        + " double (default ${DEFAULT-VALUE}).")
    String type;

    @Option(names = "--elements", defaultValue = "1", description = "Elements per variable; more than 1 makes"
        + " payloads, e.g. 5 longs = 40 bytes, 128 = 1 KiB (default ${DEFAULT-VALUE}).")
    int elements;

    @Option(names = "--require", defaultValue = "", description = "Keep only programs with a statement of one of"
        + " these kinds (comma-separated; default: any).")
    String require;

    @Option(names = "--all", description = "Keep programs that exercise no rule too.")
    boolean all;

    @Option(names = "--max", defaultValue = "0", description = "Stop after this many tests (0: no limit).")
    int max;

    @Option(names = "--prefix", defaultValue = "gen", description = "Test name prefix (default ${DEFAULT-VALUE}).")
    String prefix;

    @Mixin
    ModelOptionsMixin model;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private org.rma4j.litmus.syntax.VarType varType() {
        final org.rma4j.litmus.syntax.VarType t = org.rma4j.litmus.syntax.VarType.byName(type);
        if (t == null) {
            throw new IllegalArgumentException("unknown type " + type + " (long, int, short, double)");
        }
        return t;
    }

    @Override
    public Integer call() throws IOException {
        final PrintWriter stdout = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        Files.createDirectories(out);
        final Generator.Config config = new Generator.Config(minProcs, procs, stmts, Letter.parse(alphabet), vars, !all,
            max, model.options(), prefix, varType(), elements,
            require.isBlank() ? java.util.Set.of() : Letter.parse(require));
        final long start = System.nanoTime();
        final long[] lastReport = {start};
        final Generator.Stats stats = new Generator(config).generate(g -> {
            try {
                Files.writeString(out.resolve(g.program().name() + ".litmus"), Printer.print(g.program()));
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }, seen -> {
            final long now = System.nanoTime();
            if (now - lastReport[0] >= 2_000_000_000L) {
                lastReport[0] = now;
                err.println("gen: " + seen + " candidate programs so far");
                err.flush();
            }
        });
        stdout.printf(java.util.Locale.ROOT,
            "Generated %d tests in %s (%d candidates, %d duplicates up to renaming,"
                + " %d invalid, %d exercising no rule) in %.1f s%n",
            stats.kept(), out, stats.candidates(), stats.duplicates(), stats.invalid(), stats.uninteresting(),
            (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
