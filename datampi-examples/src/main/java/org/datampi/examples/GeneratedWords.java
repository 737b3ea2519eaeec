package org.datampi.examples;

import java.util.SplittableRandom;

/**
 * The words an O task of {@link WordCount} counts: a deterministic function of (seed, task), so that a test can
 * compute the same counts in one JVM. With skew, about half of all words are the same word.
 */
public final class GeneratedWords {
    public static final String SKEWED_WORD = "the";

    private final SplittableRandom random;
    private final int vocabulary;
    private final boolean skewed;

    public GeneratedWords(long seed, int task, int vocabulary, boolean skewed) {
        this.random = new SplittableRandom(seed * 1_000_003L + task);
        this.vocabulary = vocabulary;
        this.skewed = skewed;
    }

    public String next() {
        if (skewed && random.nextBoolean()) {
            return SKEWED_WORD;
        }
        return "w" + random.nextInt(vocabulary);
    }
}
