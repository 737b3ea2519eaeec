package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hive.common.util.HiveVersionInfo;

/**
 * Hive's test-only jars, built from the source release's sources as Hive's build makes them for its qtest driver:
 * hive-it-util (the hooks, UDFs, SerDes and the test authorizer that qfiles name), hive-it-test-serde,
 * hive-it-custom-serde, hive-it-custom-udfs' class-loader jars and hive-contrib (not on Maven Central at 4.1.0). They
 * are laid out as a Maven repository, the qfiles' ${system:maven.local.repository} (their ADD JAR paths), and those
 * that Hive's itests/qtest module has on its class path (util, custom-serde, contrib) are the sessions' class path and
 * auxiliary jars (hive.aux.jars.path, which Hive ships with every job: the ranks load them as Hive's tasks do).
 *
 * <p>hive-it-util is compiled from the classes the qfiles name (and what they use), not whole: the rest of it is Hive's
 * test driver, which needs Hive's mini clusters. A class that does not compile here (it needs Hive's test jars) is
 * left out, said on the log, and the files that name it stay out of the candidate set.
 */
public final class HiveTestJars {
    /** Junit 4, which some of Hive's test hooks assert with: the build copies it there (hive-test-lib). */
    private static final String TEST_LIBRARIES = "hive-datampi-benchmarks/target/hive-test-lib";
    /** Hive's test authorizer (qt:authorizer; data/conf's hive-site.xml names it for every file). */
    static final String AUTHORIZER =
            "org.apache.hadoop.hive.ql.security.authorization.plugin.sqlstd.SQLStdHiveAuthorizerFactoryForTest";

    /**
     * One of Hive's test jars.
     *
     * @param path its Maven path without the version (org/apache/hive/hive-it-util)
     * @param sources its source directory in the release
     * @param sourcePath where the classes its sources use are compiled from, when they are not on the class path
     * @param onClassPath whether Hive's qtest module has it on its class path (else a qfile adds it by its path)
     * @param namedOnly whether only the classes qfiles name are compiled (with what they use), not all its sources
     */
    private record Artifact(String path, String sources, List<String> sourcePath, boolean onClassPath,
            boolean namedOnly) {
        String artifactId() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    private static final List<Artifact> ARTIFACTS = List.of(
            new Artifact("org/apache/hive/hive-it-util", "itests/util/src/main/java",
                    List.of("itests/util/src/main/java", "classification/src/java"), true, true),
            new Artifact("org/apache/hive/hive-it-test-serde", "itests/test-serde/src/main/java",
                    List.of(), false, false),
            new Artifact("org/apache/hive/hive-it-custom-serde", "itests/custom-serde/src/main/java",
                    List.of(), true, false),
            new Artifact("org/apache/hive/hive-contrib", "contrib/src/java", List.of(), true, false),
            new Artifact("org/apache/hive/hive-it-custom-udfs/udf-classloader-util",
                    "itests/custom-udfs/udf-classloader-util/src/main/java", List.of(), false, false),
            new Artifact("org/apache/hive/hive-it-custom-udfs/udf-classloader-udf1",
                    "itests/custom-udfs/udf-classloader-udf1/src/main/java",
                    List.of("itests/custom-udfs/udf-classloader-util/src/main/java"), false, false),
            new Artifact("org/apache/hive/hive-it-custom-udfs/udf-classloader-udf2",
                    "itests/custom-udfs/udf-classloader-udf2/src/main/java",
                    List.of("itests/custom-udfs/udf-classloader-util/src/main/java"), false, false));

    /** The source directories that {@link HiveSourceRelease} extracts for these jars. */
    static final List<String> SOURCES = ARTIFACTS.stream()
            .flatMap(artifact -> Stream.concat(Stream.of(artifact.sources()), artifact.sourcePath().stream()))
            .map(directory -> directory + "/").distinct().toList();

    private final Path repository;
    private final List<Path> auxJars;
    private final List<Path> libraries;
    private final ClassLoader classes;

    /** @param built every jar built, those a file adds by its path too: where a class a file names is looked for */
    private HiveTestJars(Path repository, List<Path> built, List<Path> auxJars, List<Path> libraries) {
        this.repository = requireNonNull(repository, "repository is null");
        this.auxJars = List.copyOf(auxJars);
        this.libraries = List.copyOf(libraries);
        URL[] urls = Stream.concat(built.stream(), libraries.stream()).map(HiveTestJars::url).toArray(URL[]::new);
        this.classes = new URLClassLoader(urls, HiveTestJars.class.getClassLoader());
    }

    /** No jars (a repository without them): the harness's own classes only, as for tests of a qfile's parsing. */
    static HiveTestJars none(Path repository) {
        return new HiveTestJars(repository, List.of(), List.of(), List.of());
    }

    /**
     * Builds the jars into REPOSITORY (emptied first) from RELEASE; hive-it-util from the classes NAMED (fully
     * qualified names a qfile mentions) that are among its sources, and the test authorizer. Says on LOG what it
     * built and what did not compile.
     */
    public static HiveTestJars build(HiveSourceRelease release, Set<String> named, Path repository, Path home,
            PrintStream log) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IOException("no Java compiler in " + System.getProperty("java.home")
                    + ": Hive's test jars are compiled from its source release (a JDK is needed, not a JRE)");
        }
        FileUtil.fullyDelete(repository.toFile());
        Path work = repository.resolve(".classes");
        List<Path> libraries = testLibraries(home);
        List<Path> compileClassPath = new ArrayList<>(harnessClassPath());
        compileClassPath.addAll(libraries);
        List<Path> auxJars = new ArrayList<>();
        List<Path> built = new ArrayList<>();
        String version = HiveVersionInfo.getVersion();
        for (Artifact artifact : ARTIFACTS) {
            Path sources = release.root().resolve(artifact.sources());
            List<Path> roots = artifact.namedOnly() ? namedRoots(sources, named) : javaFiles(sources);
            Path classes = work.resolve(artifact.artifactId());
            List<Path> compiled = compile(compiler, roots, artifact.sourcePath().stream().map(release.root()::resolve)
                    .toList(), compileClassPath, classes, log, artifact.artifactId());
            if (compiled.isEmpty()) {
                continue;
            }
            Path jar = repository.resolve(artifact.path()).resolve(version)
                    .resolve(artifact.artifactId() + "-" + version + ".jar");
            writeJar(classes, jar);
            log.printf("hive-compat: built %s from %d of its sources%n", repository.relativize(jar), compiled.size());
            // The class-loader UDF jars use their util jar's class; the later jars compile against the earlier.
            compileClassPath.add(jar);
            built.add(jar);
            if (artifact.onClassPath()) {
                auxJars.add(jar);
            }
        }
        FileUtil.fullyDelete(work.toFile());
        return new HiveTestJars(repository, built, auxJars, libraries);
    }

    /** The qfiles' ${system:maven.local.repository}. */
    public Path repository() {
        return repository;
    }

    /**
     * The built jars Hive's qtest module has on its class path, which the sessions have as auxiliary jars
     * (hive.aux.jars.path): Hive ships them with every job, so that the tasks, in the ranks too, load their classes.
     */
    public List<Path> auxJars() {
        return auxJars;
    }

    /** What the sessions add to the harness's class path: the auxiliary jars and junit 4 (hooks assert with it). */
    public List<Path> classPath() {
        return Stream.concat(auxJars.stream(), libraries.stream()).toList();
    }

    /**
     * Whether the class is on the sessions' class path or in a jar a file may add: the harness's and every jar built
     * (looked for, not initialized).
     */
    public boolean hasClass(String className) {
        try {
            Class.forName(className, false, classes);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the repository has the file at PATH, relative to it (a jar a qfile adds). */
    public boolean hasFile(String path) {
        return Files.isRegularFile(repository.resolve(path));
    }

    /** The sources of the classes NAMED that are among SOURCES, and the test authorizer's if it is. */
    private static List<Path> namedRoots(Path sources, Set<String> named) {
        return Stream.concat(named.stream(), Stream.of(AUTHORIZER)).distinct()
                .map(name -> sources.resolve(name.replace('.', '/') + ".java")).filter(Files::isRegularFile)
                .sorted().toList();
    }

    private static List<Path> javaFiles(Path sources) throws IOException {
        if (!Files.isDirectory(sources)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    /**
     * Compiles ROOTS into CLASSES; a root with an error of its own is left out and the rest compiled again, as long
     * as that leaves errors only in roots. The roots that compiled; none when the errors are in what they use.
     */
    private static List<Path> compile(JavaCompiler compiler, List<Path> roots, List<Path> sourcePath,
            List<Path> classPath, Path classes, PrintStream log, String artifact) throws IOException {
        List<Path> remaining = new ArrayList<>(roots);
        while (!remaining.isEmpty()) {
            FileUtil.fullyDelete(classes.toFile());
            Files.createDirectories(classes);
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            List<String> options = new ArrayList<>(List.of("-d", classes.toString(), "-proc:none", "-nowarn",
                    "-encoding", "UTF-8", "-implicit:class", "-classpath", join(classPath)));
            if (!sourcePath.isEmpty()) {
                options.addAll(List.of("-sourcepath", join(sourcePath)));
            }
            boolean compiled;
            try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
                compiled = compiler.getTask(null, files, diagnostics, options, null,
                        files.getJavaFileObjectsFromPaths(remaining)).call();
            }
            if (compiled) {
                return remaining;
            }
            List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
            Set<Path> failed = errors.stream().filter(d -> d.getSource() != null)
                    .map(d -> Path.of(d.getSource().toUri())).collect(Collectors.toCollection(LinkedHashSet::new));
            List<Path> failedRoots = remaining.stream().filter(failed::contains).toList();
            if (failedRoots.isEmpty()) {
                log.printf("hive-compat: %s left out: %s%n", artifact, errors.isEmpty() ? "the compiler failed"
                        : errors.get(0).toString().lines().findFirst().orElse(""));
                return List.of();
            }
            for (Path root : failedRoots) {
                Diagnostic<? extends JavaFileObject> first = errors.stream()
                        .filter(d -> d.getSource() != null && Path.of(d.getSource().toUri()).equals(root))
                        .findFirst().orElseThrow();
                log.printf("hive-compat: %s: %s left out (%s)%n", artifact, root.getFileName(),
                        first.getMessage(Locale.ROOT).lines().findFirst().orElse(""));
            }
            remaining.removeAll(failedRoots);
        }
        return List.of();
    }

    private static List<Path> harnessClassPath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank()).map(Path::of).toList();
    }

    /** Hive's test hooks' own libraries (junit 4), which the build copies. */
    private static List<Path> testLibraries(Path home) throws IOException {
        Path directory = home.resolve(TEST_LIBRARIES);
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> jars = Files.list(directory)) {
            return jars.filter(jar -> jar.toString().endsWith(".jar")).sorted().toList();
        }
    }

    private static void writeJar(Path classes, Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> entries = Files.walk(classes)) {
            for (Path entry : entries.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(entry).toString().replace(File.separatorChar, '/')));
                Files.copy(entry, out);
                out.closeEntry();
            }
        }
    }

    private static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }
}
