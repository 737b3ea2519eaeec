package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.compress.archivers.ArchiveException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.common.CompressionUtils;
import org.apache.hadoop.hive.ql.exec.AddToClassPathAction;
import org.apache.hadoop.hive.ql.exec.UDFClassLoader;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.datampi.mpid.JobSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's distributed cache, over MPI: the files, archives and class-path jars a job lists
 * ({@code mapreduce.job.cache.files}, {@code mapreduce.job.cache.archives}, {@code mapreduce.job.classpath.files}) are
 * read once per job, by rank 0, from their file system (HDFS on a cluster), and broadcast to every rank, which writes
 * its copy into its own job directory and unpacks archives, as a NodeManager's localizer does for a node. The job's
 * configuration then names the local copies ({@code mapreduce.job.cache.local.files} and {@code .archives}), which is
 * where Hive's tasks look: the map-join hash tables its ExecDriver uploads as an archive per stage, and the jars and
 * files of ADD JAR / ADD FILE. No rank ever reads the Hive host's local disk, and no O task reads HDFS for them.
 */
final class JobFiles {
    private static final Logger LOG = LoggerFactory.getLogger(JobFiles.class);
    /** The last path element of a libjars directory that Hadoop lists as a wildcard; its jars are also on the class path. */
    private static final String WILDCARD = "*";

    private final List<Path> classPath;
    private final int filesRead;
    private final long bytesRead;

    private JobFiles(List<Path> classPath, int filesRead, long bytesRead) {
        this.classPath = List.copyOf(classPath);
        this.filesRead = filesRead;
        this.bytesRead = bytesRead;
    }

    /**
     * The job's class-path jars (ADD JAR; the local copies) join this job's class loader, as Hive's ExecDriver does in
     * a child JVM: the plan's UDFs and SerDes load from them. A job without them gets the process's own loader, so
     * that one job's jars never reach the next.
     */
    void useClassPath(JobConf job) {
        if (Thread.currentThread().getContextClassLoader() instanceof UDFClassLoader previous) {
            try {
                previous.close();
            } catch (IOException e) {
                LOG.warn("Cannot close the previous job's class loader", e);
            }
        }
        ClassLoader loader = JobFiles.class.getClassLoader();
        if (!classPath.isEmpty()) {
            List<String> paths = classPath.stream().map(Path::toString).toList();
            loader = new AddToClassPathAction(loader, paths).run();
            LOG.info("Added jars: {}", paths);
        }
        job.setClassLoader(loader);
        Thread.currentThread().setContextClassLoader(loader);
    }

    /** How many files rank 0 read from the job's file systems: once per file per job, whatever the rank count. */
    int filesRead() {
        return filesRead;
    }

    long bytesRead() {
        return bytesRead;
    }

    /** Localizes every file the job lists on this rank; all ranks call it together. */
    static JobFiles localize(JobConf job, JobSetup setup) throws IOException {
        requireNonNull(job, "job is null");
        requireNonNull(setup, "setup is null");
        Path root = setup.localDir();
        Map<String, Path> localCopies = new LinkedHashMap<>();
        long bytes = 0;
        List<String> localFiles = new ArrayList<>();
        for (URI file : uris(job, MRJobConfig.CACHE_FILES)) {
            if (new org.apache.hadoop.fs.Path(file).getName().equals(WILDCARD)) {
                continue; // Hadoop's libjars directory: each of its jars is a class-path file, localized below.
            }
            Path local = root.resolve("files").resolve(Integer.toString(localCopies.size())).resolve(linkName(file));
            bytes += copy(job, setup, file, local);
            localCopies.put(file.getPath(), local);
            localFiles.add(local.toString());
        }
        List<String> localArchives = new ArrayList<>();
        for (URI archive : uris(job, MRJobConfig.CACHE_ARCHIVES)) {
            String name = linkName(archive);
            Path packed = root.resolve("archives").resolve(Integer.toString(localArchives.size())).resolve(name);
            bytes += copy(job, setup, archive, packed);
            // Hadoop unpacks an archive into a directory of the archive's name; Hive's HashTableLoader finds a
            // stage's hash tables by that name (Stage-N.tar.gz).
            Path unpacked = packed.resolveSibling(name + ".unpacked");
            unpack(packed, unpacked);
            Files.delete(packed);
            Files.move(unpacked, packed);
            localArchives.add(packed.toString());
        }
        List<Path> classPath = new ArrayList<>();
        for (URI jar : uris(job, MRJobConfig.CLASSPATH_FILES)) {
            // Hadoop lists class-path jars by path alone, and also as cache files by their qualified URI.
            Path local = localCopies.get(jar.getPath());
            if (local == null) {
                local = root.resolve("classpath").resolve(Integer.toString(classPath.size()))
                        .resolve(linkName(jar));
                bytes += copy(job, setup, jar, local);
                localCopies.put(jar.getPath(), local);
            }
            classPath.add(local);
        }
        if (!localFiles.isEmpty()) {
            job.set(MRJobConfig.CACHE_LOCALFILES, String.join(",", localFiles));
        }
        if (!localArchives.isEmpty()) {
            job.set(MRJobConfig.CACHE_LOCALARCHIVES, String.join(",", localArchives));
        }
        int filesRead = setup.rank() == 0 ? localCopies.size() + localArchives.size() : 0;
        return new JobFiles(classPath, filesRead, setup.rank() == 0 ? bytes : 0);
    }

    /** Rank 0 reads the file once from its file system; every rank writes what it receives to {@code local}. */
    private static long copy(JobConf job, JobSetup setup, URI uri, Path local) throws IOException {
        Files.createDirectories(local.getParent());
        org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(withoutFragment(uri));
        try (InputStream in = setup.rank() == 0 ? open(job, remote) : null;
             OutputStream out = Files.newOutputStream(local)) {
            return setup.broadcast(in, out);
        }
    }

    private static InputStream open(JobConf job, org.apache.hadoop.fs.Path remote) throws IOException {
        FileSystem fs = remote.getFileSystem(job);
        try {
            return fs.open(remote);
        } catch (IOException e) {
            throw new IOException("Cannot read the job's file " + remote + ": " + e.getMessage(), e);
        }
    }

    /**
     * Unpacks by the archive's extension, as Hadoop's localizer does; anything else is copied as it is. Tar archives
     * go through Hive's own CompressionUtils, the pair of the one that packed the hash tables, in this JVM (Hadoop's
     * FileUtil.unTar starts a shell and tar for every archive).
     */
    private static void unpack(Path archive, Path into) throws IOException {
        String name = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        Files.createDirectories(into);
        if (name.endsWith(".jar") || name.endsWith(".zip")) {
            FileUtil.unZip(archive.toFile(), into.toFile());
        } else if (name.endsWith(".tar.gz") || name.endsWith(".tgz") || name.endsWith(".tar")) {
            try {
                CompressionUtils.unTar(archive.toString(), into.toString(), !name.endsWith(".tar"));
            } catch (ArchiveException e) {
                throw new IOException("Cannot unpack the job's archive " + archive + ": " + e.getMessage(), e);
            }
        } else {
            Files.copy(archive, into.resolve(archive.getFileName()));
        }
    }

    private static List<URI> uris(JobConf job, String key) {
        List<URI> uris = new ArrayList<>();
        for (String value : job.getTrimmedStringCollection(key)) {
            try {
                uris.add(new URI(value));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("Invalid URI '" + value + "' in " + key, e);
            }
        }
        return uris;
    }

    /** The name a task sees the file by: the URI's fragment (a Hadoop symlink name), else its file name. */
    private static String linkName(URI uri) {
        return uri.getFragment() != null ? uri.getFragment() : new org.apache.hadoop.fs.Path(uri.getPath()).getName();
    }

    private static URI withoutFragment(URI uri) {
        try {
            return new URI(uri.getScheme(), uri.getAuthority(), uri.getPath(), null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Invalid URI " + uri, e);
        }
    }
}
