package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What mpidrun passes to every rank: {@code --job-id ID -O ONUM -A ANUM CLASS [ARGS...]}.
 *
 * @param jobId names the job's log and spill directories
 * @param oTasks number of O tasks
 * @param aTasks number of A tasks (0 for a job without a shuffle)
 * @param mainClass the program's class ({@link ProgramClass})
 * @param programArguments its arguments
 */
public record LaunchArguments(String jobId, int oTasks, int aTasks, String mainClass, List<String> programArguments) {
    public LaunchArguments {
        requireNonNull(jobId, "jobId is null");
        requireNonNull(mainClass, "mainClass is null");
        programArguments = List.copyOf(programArguments);
        if (oTasks < 1) {
            throw new IllegalArgumentException("Invalid value '" + oTasks + "' for -O: expected an integer >= 1");
        }
        if (aTasks < 0) {
            throw new IllegalArgumentException("Invalid value '" + aTasks + "' for -A: expected an integer >= 0");
        }
    }

    public static LaunchArguments parse(String[] args) {
        String jobId = null;
        Integer oTasks = null;
        Integer aTasks = null;
        int i = 0;
        while (i < args.length && args[i].startsWith("-")) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Option " + option + " needs a value");
            }
            String value = args[i + 1];
            switch (option) {
                case "--job-id" -> jobId = value;
                case "-O" -> oTasks = parseCount("-O", value);
                case "-A" -> aTasks = parseCount("-A", value);
                default -> throw new IllegalArgumentException("Unknown option " + option
                        + "; expected --job-id ID -O ONUM -A ANUM CLASS [ARGS...]");
            }
            i += 2;
        }
        if (jobId == null || oTasks == null || aTasks == null || i >= args.length) {
            throw new IllegalArgumentException("Usage: CommonProcess --job-id ID -O ONUM -A ANUM CLASS [ARGS...]");
        }
        return new LaunchArguments(jobId, oTasks, aTasks, args[i], List.of(args).subList(i + 1, args.length));
    }

    private static int parseCount(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + option + ": expected an integer");
        }
    }
}
