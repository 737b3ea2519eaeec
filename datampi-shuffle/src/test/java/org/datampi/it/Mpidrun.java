package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Runs real bin/mpidrun jobs for the integration tests and checks that they leave nothing behind. */
final class Mpidrun {
    static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    static final Path LOG_DIR = HOME.resolve("datampi-shuffle/target/it-logs");
    private static final Pattern JOB_ID = Pattern.compile("mpidrun: job (job_\\S+):");

    private Mpidrun() {
    }

    record Result(int exitCode, String stdout, String stderr, Duration elapsed) {
        String jobId() {
            Matcher matcher = JOB_ID.matcher(stderr);
            assertTrue(matcher.find(), "mpidrun names its job: " + stderr);
            return matcher.group(1);
        }

        Path logDir() {
            return LOG_DIR.resolve(jobId());
        }

        String rankLogs() throws IOException {
            StringBuilder logs = new StringBuilder();
            try (Stream<Path> files = Files.list(logDir())) {
                for (Path file : files.sorted().toList()) {
                    logs.append(Files.readString(file));
                }
            }
            return logs.toString();
        }

        Result assertSucceeded() {
            if (exitCode != 0) {
                fail("mpidrun failed with exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
            }
            return this;
        }
    }

    /** The jar MODULE of this checkout built (not its tests' jar). */
    static Path jar(String module) throws IOException {
        try (Stream<Path> files = Files.list(HOME.resolve(module).resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().matches(module + "-[^-]+(-SNAPSHOT)?\\.jar"))
                    .findFirst().orElseThrow(() -> new IllegalStateException(module + "'s jar is not built"));
        }
    }

    static Path testClasses() {
        return HOME.resolve("datampi-shuffle/target/test-classes");
    }

    /** Runs mpidrun with arguments, failing the test if it does not end within the timeout. */
    static Result run(Duration timeout, List<String> arguments) throws IOException, InterruptedException {
        return run(timeout, arguments, ProcessBuilder.Redirect.from(new File("/dev/null")));
    }

    /** As {@link #run(Duration, List)}, with standard input from the given source (a PIPE is left open). */
    static Result run(Duration timeout, List<String> arguments, ProcessBuilder.Redirect input)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(HOME.resolve("bin/mpidrun").toString());
        command.addAll(arguments);
        Path stdout = Files.createTempFile("mpidrun", ".out");
        Path stderr = Files.createTempFile("mpidrun", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).redirectInput(input);
        builder.environment().put("DATAMPI_LOG_DIR", LOG_DIR.toString());
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("mpidrun did not end within " + timeout + ": " + command + "\n" + Files.readString(stderr));
        }
        Result result = new Result(process.exitValue(), Files.readString(stdout), Files.readString(stderr),
                Duration.ofNanos(System.nanoTime() - start));
        Files.delete(stdout);
        Files.delete(stderr);
        return result;
    }

    /** Asserts that no process of the job is left, allowing a few seconds for them to exit. */
    static void assertNoProcessLeft(String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> left;
        do {
            left = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().map(line -> line.contains(jobId)).orElse(false))
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                    .toList();
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        fail("processes of " + jobId + " are left: " + left);
    }

    /**
     * Asserts that nothing a rank wrote stays under LOCAL_DIR (mpid.local.dir): only the user's own directory, which
     * the ranks keep 0700, may remain, empty.
     */
    static void assertNoLocalFileLeft(Path localDir) throws IOException {
        Path user = localDir.resolve("datampi-" + System.getProperty("user.name"));
        try (Stream<Path> all = Files.walk(localDir)) {
            List<Path> left = all.filter(path -> !path.equals(localDir) && !path.equals(user)).toList();
            assertTrue(left.isEmpty(), "no spill file or rank directory stays on disk: " + left);
        }
    }

}
