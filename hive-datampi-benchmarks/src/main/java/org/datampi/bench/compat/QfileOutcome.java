package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one qfile came to on one engine, statement by statement, as {@link QfileSession} writes it for the tool that
 * compares two engines' ({@link QfileVerdict}).
 *
 * @param statements the statements run, in order, up to and with the first that failed
 * @param datasetError why the file's datasets could not be loaded, if they could not (nothing of the file then ran)
 * @param datampiStages the datampi stages the session ran (its console's stage summary lines)
 */
public record QfileOutcome(List<Statement> statements, Optional<String> datasetError, int datampiStages) {
    /**
     * @param text the statement (as the file has it)
     * @param compared whether its rows are compared: not for EXPLAIN, DESCRIBE FORMATTED, SET, dfs and others whose
     *     output tells the engine, the files' layout or the time
     * @param rows its result rows (sorted where the file's rows are compared sorted or it has no ORDER BY)
     * @param error the first line of its failure, if it failed
     */
    public record Statement(String text, boolean compared, List<String> rows, Optional<String> error) {
        public Statement {
            requireNonNull(text, "text is null");
            rows = List.copyOf(rows);
            requireNonNull(error, "error is null");
        }
    }

    public QfileOutcome {
        statements = List.copyOf(statements);
        requireNonNull(datasetError, "datasetError is null");
    }

    /** The first failure: the datasets', or a statement's with the statement. */
    public Optional<String> failure() {
        if (datasetError.isPresent()) {
            return datasetError.map(error -> "loading its datasets: " + error);
        }
        return statements.stream().filter(s -> s.error().isPresent()).findFirst()
                .map(s -> s.error().get() + " (in: " + head(s.text()) + ")");
    }

    /** The rows a statement's are compared as when only how many rows it gave is compared: N of them. */
    static List<String> countOnly(int rows) {
        return List.of(rows + COUNT_ONLY);
    }

    /** How many rows ROWS stands for when they are {@link #countOnly}'s; empty when they are the rows themselves. */
    static OptionalInt countOf(List<String> rows) {
        if (rows.size() == 1 && rows.get(0).endsWith(COUNT_ONLY)) {
            String row = rows.get(0);
            return OptionalInt.of(Integer.parseInt(row.substring(0, row.length() - COUNT_ONLY.length())));
        }
        return OptionalInt.empty();
    }

    private static final String COUNT_ONLY = " rows (a LIMIT without ORDER BY)";

    /** A statement's first line, at most 100 characters. */
    static String head(String statement) {
        String line = statement.strip().lines().findFirst().orElse("");
        return line.length() > 100 ? line.substring(0, 100) + "..." : line;
    }

    // The file: one line per item, tab-separated, each value with its backslashes, tabs and newlines escaped.
    //   dataset-error <message> | statement <compared> <text> | row <row> | error <message> | stages <n>

    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        datasetError.ifPresent(error -> lines.add("dataset-error\t" + escape(error)));
        for (Statement statement : statements) {
            lines.add("statement\t" + statement.compared() + "\t" + escape(statement.text()));
            statement.rows().forEach(row -> lines.add("row\t" + escape(row)));
            statement.error().ifPresent(error -> lines.add("error\t" + escape(error)));
        }
        lines.add("stages\t" + datampiStages);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.write(partial, lines, StandardCharsets.UTF_8);
        Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    public static QfileOutcome read(Path file) throws IOException {
        List<Statement> statements = new ArrayList<>();
        Optional<String> datasetError = Optional.empty();
        int stages = -1;
        String text = null;
        boolean compared = false;
        List<String> rows = new ArrayList<>();
        Optional<String> error = Optional.empty();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] field = line.split("\t", -1);
            switch (field[0]) {
                case "dataset-error" -> datasetError = Optional.of(unescape(field[1]));
                case "statement" -> {
                    if (text != null) {
                        statements.add(new Statement(text, compared, rows, error));
                    }
                    compared = Boolean.parseBoolean(field[1]);
                    text = unescape(field[2]);
                    rows = new ArrayList<>();
                    error = Optional.empty();
                }
                case "row" -> rows.add(unescape(field[1]));
                case "error" -> error = Optional.of(unescape(field[1]));
                case "stages" -> stages = Integer.parseInt(field[1]);
                default -> throw new IOException(file + ": not an outcome line: " + line);
            }
        }
        if (text != null) {
            statements.add(new Statement(text, compared, rows, error));
        }
        if (stages < 0) {
            throw new IOException(file + " was not written to its end");
        }
        return new QfileOutcome(statements, datasetError, stages);
    }

    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    static String unescape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                char next = value.charAt(++i);
                out.append(switch (next) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> next;
                });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
