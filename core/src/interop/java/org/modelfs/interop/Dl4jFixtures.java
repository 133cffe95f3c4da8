package org.modelfs.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Locates the DL4J 1.0.0-M2.1 fixture files ({@code *.fb} with {@code *.expected.tsv} beside them),
 * kept in the test classpath folder
 * {@code fixtures/dl4j-1.0.0-M2.1} ({@code src/test/resources/fixtures/dl4j-1.0.0-M2.1}).
 */
public final class Dl4jFixtures {

    /** Classpath folder of the fixtures. */
    public static final String RESOURCE = "/fixtures/dl4j-1.0.0-M2.1";

    private Dl4jFixtures() {
    }

    /** The fixture folder on disk (from the test classpath, else {@code src/test/resources}). */
    public static Path root() {
        URL url = Dl4jFixtures.class.getResource(RESOURCE);
        if (url != null && "file".equals(url.getProtocol())) {
            try {
                return Paths.get(url.toURI());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        Path src = Paths.get("src/test/resources" + RESOURCE);
        if (Files.isDirectory(src)) {
            return src.toAbsolutePath();
        }
        throw new IllegalStateException("fixtures not found on the classpath at " + RESOURCE);
    }

    /** One fixture model by path relative to {@link #root()}, e.g. {@code "mlp_adam.fb"}. */
    public static Path model(String relative) {
        Path p = root().resolve(relative);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("no fixture " + p);
        }
        return p;
    }

    /** Every {@code *.fb} under {@link #root()} (including {@code tf-import/}), sorted by path. */
    public static List<Path> modelFiles() {
        try (Stream<Path> s = Files.walk(root())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".fb") && Files.isRegularFile(p))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code X.expected.tsv} beside {@code X.fb}. */
    public static Path expectedTsv(Path modelFile) {
        String name = modelFile.getFileName().toString();
        return modelFile.resolveSibling(name.substring(0, name.length() - ".fb".length()) + ".expected.tsv");
    }
}
