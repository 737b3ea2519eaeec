package org.datampi.hive.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits HiveQL text into statements at semicolons outside quotes, backticks and {@code --} comments, as the Hive
 * CLI does.
 *
 * @param statements the statements ended by a semicolon, without it
 * @param rest what follows the last semicolon (an unfinished statement at a prompt, or a last one without ';')
 */
public record HiveQlScript(List<String> statements, String rest) {
    public HiveQlScript {
        statements = List.copyOf(statements);
    }

    public static HiveQlScript parse(String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && quote != '`' && i + 1 < text.length()) {
                    current.append(text.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '-' && i + 1 < text.length() && text.charAt(i + 1) == '-') {
                while (i + 1 < text.length() && text.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == ';') {
                String statement = current.toString().strip();
                if (!statement.isEmpty()) {
                    statements.add(statement);
                }
                current.setLength(0);
            } else {
                if (c == '\'' || c == '"' || c == '`') {
                    quote = c;
                }
                current.append(c);
            }
        }
        return new HiveQlScript(statements, current.toString().strip());
    }

    /** Every statement of a whole script, the last one with or without its semicolon. */
    public List<String> all() {
        if (rest.isEmpty()) {
            return statements;
        }
        List<String> all = new ArrayList<>(statements);
        all.add(rest);
        return all;
    }
}
