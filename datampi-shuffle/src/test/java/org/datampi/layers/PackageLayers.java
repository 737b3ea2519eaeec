package org.datampi.layers;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * One module's packages in layers, top down, checked against its compiled classes with the JDK's jdeps: a class may
 * import classes of its own package and of packages in layers below its own, never of a package beside it (in its
 * layer) or above it. So there is no package cycle, and a reader can follow calls one way. Every package the module
 * has must be in a layer, and every package a layer names must exist, so that the declared layering stays the real one
 * (the README's Layout section describes it). Dependencies on other modules are Maven's to order, and not checked.
 */
public final class PackageLayers {
    /** A line of {@code jdeps -verbose:class}: a class, the class it depends on, and where that one was found. */
    private static final Pattern DEPENDENCE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+\\S.*$");

    private final List<Set<String>> layers;

    private PackageLayers(List<Set<String>> layers) {
        this.layers = layers;
    }

    /** LAYERS from the top down, each the packages (full names) of one layer. */
    @SafeVarargs
    public static PackageLayers of(List<String>... layers) {
        List<Set<String>> copy = new ArrayList<>();
        for (List<String> layer : layers) {
            copy.add(Set.copyOf(requireNonNull(layer, "layer is null")));
        }
        return new PackageLayers(List.copyOf(copy));
    }

    /** Fails, naming each class that imports against the layers and each package out of them, unless CLASSES follow. */
    public void assertFollowedBy(Path classes) throws IOException {
        assertTrue(Files.isDirectory(classes), "compiled classes in " + classes.toAbsolutePath());
        Set<String> packages = packagesIn(classes);
        Map<String, Integer> layerOf = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < layers.size(); i++) {
            for (String name : layers.get(i)) {
                layerOf.put(name, i);
                if (!packages.contains(name)) {
                    problems.add("layer " + (i + 1) + " names " + name + ", which has no classes in " + classes);
                }
            }
        }
        for (String name : packages) {
            if (!layerOf.containsKey(name)) {
                problems.add("package " + name + " is in no layer: place it");
            }
        }
        for (String[] dependence : dependences(classes)) {
            Integer from = layerOf.get(packageOf(dependence[0]));
            Integer to = layerOf.get(packageOf(dependence[1]));
            if (from == null || to == null || packageOf(dependence[0]).equals(packageOf(dependence[1]))) {
                continue;
            }
            if (to <= from) {
                problems.add(dependence[0] + " -> " + dependence[1] + ": " + packageOf(dependence[0]) + " may not "
                        + "import " + packageOf(dependence[1]) + ", a package " + (to < from ? "above" : "beside")
                        + " it");
            }
        }
        if (!problems.isEmpty()) {
            fail("The packages of " + classes + " do not follow their layers " + layers + ":\n  "
                    + String.join("\n  ", problems));
        }
    }

    private static Set<String> packagesIn(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> classes.relativize(f.getParent()).toString().replace('/', '.'))
                    .filter(name -> !name.isEmpty())
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    /** Each class's dependences on classes of this project, by jdeps (a JDK tool, in this JVM). */
    private static List<String[]> dependences(Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("this JDK has no jdeps (module jdk.jdeps)"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = jdeps.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                "-verbose:class", "-e", "org\\.datampi\\..*", classes.toString());
        String output = out.toString(StandardCharsets.UTF_8);
        if (exit != 0) {
            throw new IllegalStateException("jdeps " + classes + " exited " + exit + ": " + err.toString(
                    StandardCharsets.UTF_8) + output);
        }
        List<String[]> dependences = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher dependence = DEPENDENCE.matcher(line);
            if (dependence.matches()) {
                dependences.add(new String[] {dependence.group(1), dependence.group(2)});
            }
        }
        if (dependences.isEmpty()) {
            throw new IllegalStateException("jdeps found no dependence in " + classes + ":\n" + output);
        }
        return dependences;
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
