package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.apache.hadoop.fs.FileUtil;

/**
 * The parts of Hive's source release that its qfile tests need, extracted from the release's zip (a Maven artifact,
 * org.apache.hive:hive:zip:source-release) into a directory of their own at the first use: the clientpositive
 * qfiles, the data they load (data/files, with the datasets' load scripts), data/scripts, the qfiles' recorded
 * outputs ({@link RecordedOutput}) and the sources of Hive's test jars ({@link HiveTestJars}). Nothing of Hive's is
 * committed to this project.
 *
 * @param root the release's root once extracted (hive-4.1.0/): qfiles in ql/src/test/queries/clientpositive
 */
public record HiveSourceRelease(Path root) {
    private static final List<String> PARTS = Stream.concat(Stream.of(
            "ql/src/test/queries/clientpositive/", "data/files/", "data/scripts/",
            "ql/src/test/results/clientpositive/"), HiveTestJars.SOURCES.stream())
            .toList();
    /** Written last: a directory without it is a half-done extraction, done again. */
    private static final String EXTRACTED = ".extracted";

    public HiveSourceRelease {
        requireNonNull(root, "root is null");
    }

    /** The release in ZIP, extracted under DIRECTORY unless it already is (by an earlier run from the same zip). */
    public static HiveSourceRelease extract(Path zip, Path directory) throws IOException {
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            String top = topDirectory(archive, zip);
            Path root = directory.resolve(top);
            // The parts in the stamp: an extraction of fewer parts (an earlier version of this class) is done again.
            String stamp = zip.getFileName() + " " + Files.size(zip) + " " + String.join(",", PARTS);
            Path marker = root.resolve(EXTRACTED);
            if (Files.isRegularFile(marker) && Files.readString(marker).equals(stamp)) {
                return new HiveSourceRelease(root);
            }
            Path partial = directory.resolve(top + ".partial");
            FileUtil.fullyDelete(partial.toFile());
            Files.createDirectories(partial);
            Enumeration<? extends ZipEntry> entries = archive.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String path = entry.getName().substring(top.length() + 1);
                if (entry.isDirectory() || PARTS.stream().noneMatch(path::startsWith)) {
                    continue;
                }
                Path target = partial.resolve(path).normalize();
                if (!target.startsWith(partial)) {
                    throw new IOException("an entry of " + zip + " leaves its directory: " + entry.getName());
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = archive.getInputStream(entry)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            // The qfiles' ../../data/files are relative to itests/qtest, where Hive's own driver runs them.
            Files.createDirectories(partial.resolve("itests/qtest"));
            Files.writeString(partial.resolve(EXTRACTED), stamp);
            FileUtil.fullyDelete(root.toFile());
            Files.move(partial, root, StandardCopyOption.ATOMIC_MOVE);
            return new HiveSourceRelease(root);
        }
    }

    private static String topDirectory(ZipFile archive, Path zip) throws IOException {
        String first = archive.stream().findFirst().map(ZipEntry::getName).orElse("");
        String top = first.contains("/") ? first.substring(0, first.indexOf('/')) : "";
        if (top.isEmpty() || archive.stream().noneMatch(e -> e.getName().startsWith(top + "/" + PARTS.get(0)))) {
            throw new IOException(zip + " has no " + PARTS.get(0) + ": not Hive's source release");
        }
        return top;
    }

    /** The clientpositive qfiles' directory. */
    public Path clientPositive() {
        return root.resolve(PARTS.get(0));
    }

    /** The clientpositive qfiles' recorded outputs (.q.out), a directory per driver: {@link RecordedOutput}. */
    public Path recordedOutputs() {
        return root.resolve(PARTS.get(3));
    }

    /** data/files: the qfiles' and datasets' data (Hive's test.data.dir). */
    public Path dataFiles() {
        return root.resolve("data/files");
    }

    /** The load script of dataset NAME (data/files/datasets/NAME/load.hive.sql). */
    public Path datasetScript(String name) {
        return dataFiles().resolve("datasets").resolve(name).resolve("load.hive.sql");
    }

    /** itests/qtest: the working directory of a qfile's session (its ../../data/files paths). */
    public Path workingDirectory() {
        return root.resolve("itests/qtest");
    }
}
