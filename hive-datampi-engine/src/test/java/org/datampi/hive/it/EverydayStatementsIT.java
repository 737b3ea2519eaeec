package org.datampi.hive.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The everyday statements (EverydayStatements) and the file formats (FormatStatements) in the session
 * bin/hive-datampi runs, routed as its CLI routes them: on Hive on MR, then on datampi in both plan shapes, with MR's
 * outcome at every step.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EverydayStatementsIT {
    private static final Path ROOT = HiveSession.HOME.resolve("hive-datampi-engine/target/it-everyday");
    private static final Path DIRECTORIES = ROOT.resolve("directories");

    private HiveSession hive;
    private final Map<String, List<EverydayStatements.Outcome>> onMr = new ConcurrentHashMap<>();

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(ROOT.toFile());
        Files.createDirectories(DIRECTORIES);
        FormatStatements.writeInputs(DIRECTORIES);
        hive = new HiveSession(ROOT.resolve("state"), Map.of("hive.datampi.processes", "2",
                "hive.datampi.heap", "768m"));
        EverydayStatements.tables().forEach(hive::query);
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    static Stream<Object[]> everydayRuns() {
        return EverydayStatements.datampiRuns(EverydayStatements.scripts(DIRECTORIES));
    }

    static Stream<Object[]> formatRuns() {
        return EverydayStatements.datampiRuns(FormatStatements.scripts(DIRECTORIES));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("everydayRuns")
    void everydayStatementsGiveTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run) {
        sameOutcomes(script, run);
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("formatRuns")
    void everyFormatGivesTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run) {
        sameOutcomes(script, run);
    }

    private void sameOutcomes(EverydayStatements.Script script, EverydayStatements.Run run) {
        List<EverydayStatements.Outcome> mr = onMr.computeIfAbsent(script.name(), name ->
                EverydayStatements.runAndCompare(this::run, script, EverydayStatements.RUNS.get(0), null));
        EverydayStatements.runAndCompare(this::run, script, run, mr);
    }

    private EverydayStatements.Outcome run(String statement) {
        int before = hive.consoleText().length();
        try {
            List<String> rows = hive.execute(statement);
            return new EverydayStatements.Outcome(rows, null, hive.consoleText().substring(before));
        } catch (CommandProcessorException e) {
            return new EverydayStatements.Outcome(List.of(), e.getMessage(), hive.consoleText().substring(before));
        }
    }
}
