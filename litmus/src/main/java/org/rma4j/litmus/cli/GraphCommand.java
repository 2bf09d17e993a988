package org.rma4j.litmus.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.rma4j.litmus.model.ExecutionGraph;
import org.rma4j.litmus.syntax.LitmusException;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Printer;
import org.rma4j.litmus.syntax.Program;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code litmus graph FILE...}: the execution of an outcome as a Graphviz graph ({@link ExecutionGraph}),
 * NAME.dot, and NAME.svg when Graphviz's {@code dot} is on the PATH.
 */
@Command(name = "graph", mixinStandardHelpOptions = true, description = "Draw an execution of the outcome named by --state (default: the file's condition) as a"
    + " Graphviz graph: events per process, po, rf and the rules' hb edges; for a forbidden outcome the"
    + " rule and the hb cycle that rule it out. Writes NAME.dot, and NAME.svg if 'dot' is installed.")
final class GraphCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Litmus files.")
    List<Path> files;

    @Option(names = "--state", paramLabel = "PROP", description = "The outcome, as a condition's proposition, e.g. \"1:b=1 /\\ X=0\" (default: the file's condition).")
    String state;

    @Option(names = {"-o",
        "--out"}, defaultValue = ".", description = "Directory for the pictures (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--no-svg", description = "Write the dot source only.")
    boolean noSvg;

    @Mixin
    ModelOptionsMixin model;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter stdout = spec.commandLine().getOut();
        int status = 0;
        Files.createDirectories(out);
        for (final Path file : files) {
            try {
                Program program = Parser.parse(file);
                if (state != null) {
                    final String text = Printer.print(program.withCondition(null)) + "exists (" + state + ")\n";
                    program = Parser.parse(file.getFileName().toString() + " --state", text);
                }
                if (program.condition() == null) {
                    throw new LitmusException(null, file + " has no condition; name the outcome with --state");
                }
                final ExecutionGraph.Picture picture = ExecutionGraph.of(program, model.options(),
                    program.condition().prop());
                final Path dot = out.resolve(program.name() + ".dot");
                Files.writeString(dot, picture.dot());
                stdout.println(program.name() + ": " + picture.explanation());
                stdout.println("  " + dot);
                if (!noSvg) {
                    final Path svg = out.resolve(program.name() + ".svg");
                    if (svg(dot, svg)) {
                        stdout.println("  " + svg);
                    } else {
                        stdout.println("  (no SVG: Graphviz's dot is not installed)");
                    }
                }
            } catch (final LitmusException e) {
                spec.commandLine().getErr().println(e.getMessage());
                status = LitmusCommand.EXIT_ERROR;
            }
        }
        return status;
    }

    /** @return whether dot rendered the SVG (false if dot is not on the PATH). */
    static boolean svg(final Path dot, final Path svg) throws IOException, InterruptedException {
        final Process process;
        try {
            process = new ProcessBuilder("dot", "-Tsvg", "-o", svg.toString(), dot.toString()).redirectErrorStream(true)
                .start();
        } catch (final IOException e) {
            return false;
        }
        process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return false;
        }
        return process.exitValue() == 0;
    }
}
