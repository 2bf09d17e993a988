package org.rma4j.litmus;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;

/**
 * The litmus files shipped in src/main/resources/litmus, for tests.
 */
public final class Seeds {
    private Seeds() {
    }

    /** @return the shipped program called {@code name} (file name without .litmus). */
    public static Program load(final String name) {
        try (InputStream in = Seeds.class.getResourceAsStream("/litmus/" + name + ".litmus")) {
            if (in == null) {
                throw new IllegalArgumentException("no shipped litmus file " + name);
            }
            return Parser.parse(name + ".litmus", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the directory of the shipped files. */
    public static Path directory() {
        try {
            return Path.of(Seeds.class.getResource("/litmus").toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the names of every shipped file, sorted. */
    public static List<String> names() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".litmus"))
                .map(n -> n.substring(0, n.length() - ".litmus".length())).sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
