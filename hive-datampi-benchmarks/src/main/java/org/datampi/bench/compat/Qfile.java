package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hive.common.util.HiveVersionInfo;
import org.datampi.hive.cli.HiveQlScript;

/**
 * One of Hive's qfiles, as Hive's own qtest driver reads it: its statements (split as Hive's CLI splits a script), its
 * {@code --! qt:} directives (the datasets it loads first, its time zone, a transaction manager), whether its rows
 * are compared sorted ({@code -- SORT_QUERY_RESULTS}), and why it cannot run here when it cannot.
 *
 * @param name the file's name (groupby7.q)
 * @param statements its statements in order
 * @param datasets the datasets its qt:dataset directives name, in order (data/files/datasets/NAME/load.hive.sql)
 * @param onlyItsDatasets whether no other dataset may be loaded beside its own (qt:dataset:...:ONLY)
 * @param sortResults whether Hive compares its result rows sorted (SORT_QUERY_RESULTS, SORT_BEFORE_DIFF)
 * @param timeZone its qt:timezone, if any
 * @param transactional whether it runs under Hive's DbTxnManager (qt:transactional)
 * @param authorizer whether it runs under Hive's test authorizer (qt:authorizer)
 * @param exclusion why it is not run, if it is not: {@link Exclusion}
 */
public record Qfile(String name, List<String> statements, List<String> datasets, boolean onlyItsDatasets,
        boolean sortResults, Optional<String> timeZone, boolean transactional, boolean authorizer,
        Optional<Exclusion> exclusion) {
    private static final Pattern DIRECTIVE = Pattern.compile("(?m)^\\s*--!\\s?qt:([a-z]+):?(.*)$");
    /** A fully qualified class name of Apache's (a hook, a UDF, a SerDe, an input format) in a file's text. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\borg\\.apache\\.(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_]*(?:\\$[A-Za-z0-9_]+)*");
    private static final String MISSING_CLASS_REASON = "test-only classes or jars of Hive's itests";
    /** A jar a file adds from Hive's test Maven repository: its path there. */
    private static final Pattern MAVEN_JAR = Pattern.compile(
            "\\$\\{system:maven\\.local\\.repository}((?:\\$\\{system:[a-z.]+}|[^\\s;'\"$])+?\\.jar)");
    private static final Pattern SORTED =
            Pattern.compile("--\\s*SORT_(QUERY_RESULTS|BEFORE_DIFF|AND_HASH_QUERY_RESULTS)");

    /**
     * Why a file is not run, and whether that is for good (it needs what the issue leaves out: another system, or a
     * runtime other than datampi and MR) or until the harness gives it what Hive's test driver does.
     */
    public enum Kind { EXCLUDED, NOT_YET_SUPPORTED }

    /** @param kind for good or for now; @param reason what it needs, as the report groups files */
    public record Exclusion(Kind kind, String reason) {
        public Exclusion {
            requireNonNull(kind, "kind is null");
            requireNonNull(reason, "reason is null");
        }
    }

    /** A rule: the reason of the first rule whose pattern the file's text (lower-cased, comments kept) matches. */
    private record Rule(Kind kind, String reason, Pattern pattern) {
    }

    private static final List<Rule> RULES = List.of(
            rule(Kind.EXCLUDED, "disabled by Hive (qt:disabled)", "--!\\s?qt:disabled"),
            rule(Kind.EXCLUDED, "an external JDBC database", "jdbcstoragehandler|--!\\s?qt:database|create connector"
                    + "|create remote database"),
            rule(Kind.EXCLUDED, "HBase", "hbase"),
            rule(Kind.EXCLUDED, "Kafka", "kafkastoragehandler|kafka"),
            rule(Kind.EXCLUDED, "Druid", "druid"),
            rule(Kind.EXCLUDED, "Kudu", "kudu"),
            rule(Kind.EXCLUDED, "LLAP daemons", "hive\\.execution\\.mode\\s*=\\s*llap|^\\s*llap\\s"),
            rule(Kind.EXCLUDED, "Spark", "hive\\.execution\\.engine\\s*=\\s*spark"),
            rule(Kind.EXCLUDED, "Iceberg", "stored by iceberg|icebergstoragehandler"),
            rule(Kind.EXCLUDED, "HDFS encryption or erasure coding (a MiniDFS's)", "^\\s*(crypto|erasure)\\s"),
            rule(Kind.NOT_YET_SUPPORTED, "the SYS database (qt:sysdb)", "--!\\s?qt:sysdb"),
            rule(Kind.NOT_YET_SUPPORTED, "Hive's scheduled query or query history services",
                    "--!\\s?qt:(scheduledqueryservice|queryhistory|scheduledquerycleaner)"),
            // Jars by ivy:// and itests/util's classes run as a script from its build directory; the classes a file
            // names and the jars it adds from ${system:maven.local.repository} are looked for among the harness's
            // and Hive's test jars (MISSING_CLASS_REASON).
            rule(Kind.NOT_YET_SUPPORTED, MISSING_CLASS_REASON, "ivy://|extracturl"),
            rule(Kind.NOT_YET_SUPPORTED, "the CLI's source and shell commands", "^\\s*(source\\s|!)"));

    public Qfile {
        requireNonNull(name, "name is null");
        statements = List.copyOf(statements);
        datasets = List.copyOf(datasets);
        requireNonNull(timeZone, "timeZone is null");
        requireNonNull(exclusion, "exclusion is null");
    }

    private static Rule rule(Kind kind, String reason, String pattern) {
        return new Rule(kind, reason, Pattern.compile(pattern, Pattern.MULTILINE));
    }

    /** The fully qualified names of Apache's classes that TEXT (a qfile's) names. */
    static Set<String> classNames(String text) {
        return CLASS_NAME.matcher(text).results().map(MatchResult::group)
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    /** The qfile FILE, its classes and jars looked for among the harness's and JARS. */
    public static Qfile read(Path file, HiveTestJars jars) throws IOException {
        return parse(file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8), jars);
    }

    static Qfile parse(String name, String text, HiveTestJars jars) {
        Set<String> datasets = new LinkedHashSet<>();
        boolean only = false;
        boolean transactional = false;
        boolean authorizer = false;
        Optional<String> timeZone = Optional.empty();
        Matcher directive = DIRECTIVE.matcher(text);
        while (directive.find()) {
            String value = directive.group(2).strip();
            switch (directive.group(1)) {
                case "dataset" -> {
                    // qt:dataset:a,b[:ONLY]: with ONLY, no other dataset may be loaded (the file runs in a JVM alone).
                    only |= value.endsWith(":ONLY");
                    String tables = value.endsWith(":ONLY") ? value.substring(0, value.length() - 5) : value;
                    for (String table : tables.split(",")) {
                        if (!table.isBlank()) {
                            datasets.add(table.strip());
                        }
                    }
                }
                case "timezone" -> timeZone = Optional.of(value);
                case "transactional" -> transactional = true;
                case "authorizer" -> authorizer = true;
                default -> {
                    // The others are exclusions (disabled, database, authorizer, sysdb...) or masks (replace).
                }
            }
        }
        String lower = text.toLowerCase(Locale.ROOT);
        Optional<Exclusion> exclusion = RULES.stream().filter(rule -> rule.pattern().matcher(lower).find())
                .findFirst().map(rule -> new Exclusion(rule.kind(), rule.reason()));
        if (exclusion.isEmpty()) {
            Stream<String> classes = classNames(text).stream();
            if (authorizer) {
                classes = Stream.concat(classes, Stream.of(HiveTestJars.AUTHORIZER));
            }
            boolean missing = classes.anyMatch(c -> !jars.hasClass(c)) || MAVEN_JAR.matcher(text).results()
                    .map(jar -> jar.group(1).replace("${system:file.separator}", "/")
                            .replace("${system:hive.version}", HiveVersionInfo.getVersion()).replaceFirst("^/+", ""))
                    .anyMatch(jar -> !jars.hasFile(jar));
            if (missing) {
                exclusion = Optional.of(new Exclusion(Kind.NOT_YET_SUPPORTED, MISSING_CLASS_REASON));
            }
        }
        boolean sort = SORTED.matcher(text).find();
        return new Qfile(name, new ArrayList<>(HiveQlScript.parse(text).all()), new ArrayList<>(datasets), only, sort,
                timeZone, transactional, authorizer, exclusion);
    }

}
