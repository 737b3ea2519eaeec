package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.ReflectionUtils;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.engine.BlockCombiner;

/** The configuration a task passed to {@link MPI_D#Init}, validated and resolved to objects. */
public final class TaskConf {
    private static final Set<String> KEYS = Set.of(MpidConf.KEY_CLASS, MpidConf.VALUE_CLASS,
            MpidConf.COMPARATOR_CLASS, MpidConf.PARTITIONER_CLASS, MpidConf.COMBINER_CLASS);
    private static final Set<String> JOB_KEYS = Set.of(ShuffleSettings.MEM_USED_PERCENT, ShuffleSettings.SEND_QUEUE,
            ShuffleSettings.BLOCK_SIZE, ShuffleSettings.COMPRESSION, ShuffleSettings.LOCAL_DIR,
            ShuffleSettings.LIVENESS_TIMEOUT, ShuffleSettings.MERGE_FACTOR, ShuffleSettings.LOCALITY_WAIT);

    private final Map<String, String> conf;
    private final KeyValueSerde keySerde;
    private final KeyValueSerde valueSerde;
    private final KeyOrder keyOrder;
    private final RawComparator<?> comparator;
    private final Partitioner partitioner;
    private final Optional<Combiner> combiner;

    private TaskConf(Map<String, String> conf, Optional<Partitioner> given) {
        for (String key : conf.keySet()) {
            if (JOB_KEYS.contains(key)) {
                throw new IllegalArgumentException(key + " is a job setting, not a task setting: pass it to mpidrun as -D "
                        + key + "=VALUE");
            }
            if (key.startsWith("mpid.") && !KEYS.contains(key)) {
                throw new IllegalArgumentException("Unknown setting " + key + "; accepted: " + KEYS);
            }
        }
        this.conf = Map.copyOf(conf);
        this.keySerde = newKeySerde();
        this.valueSerde = newValueSerde();
        this.keyOrder = new KeyOrder(keySerde.typeName(), conf.getOrDefault(MpidConf.COMPARATOR_CLASS, ""));
        this.comparator = keyOrder.comparator();
        if (given.isPresent() && conf.containsKey(MpidConf.PARTITIONER_CLASS)) {
            throw new IllegalArgumentException("MPI_D.Init was given a partitioner and " + MpidConf.PARTITIONER_CLASS
                    + "=" + conf.get(MpidConf.PARTITIONER_CLASS) + ": give one of them");
        }
        this.partitioner = given.orElseGet(() -> conf.containsKey(MpidConf.PARTITIONER_CLASS)
                ? instantiate(MpidConf.PARTITIONER_CLASS, conf.get(MpidConf.PARTITIONER_CLASS), Partitioner.class)
                : new HashPartitioner());
        this.combiner = conf.containsKey(MpidConf.COMBINER_CLASS)
                ? Optional.of(instantiate(MpidConf.COMBINER_CLASS, conf.get(MpidConf.COMBINER_CLASS), Combiner.class))
                : Optional.empty();
    }

    public static TaskConf parse(Map<String, String> conf) {
        return parse(conf, Optional.empty());
    }

    /** CONF, with the partitioner the program made itself if PARTITIONER is present (CONF then names none). */
    public static TaskConf parse(Map<String, String> conf, Optional<Partitioner> partitioner) {
        return new TaskConf(requireNonNull(conf, "conf is null"), requireNonNull(partitioner, "partitioner is null"));
    }

    public KeyValueSerde keySerde() {
        return keySerde;
    }

    public KeyValueSerde valueSerde() {
        return valueSerde;
    }

    public KeyOrder keyOrder() {
        return keyOrder;
    }

    public RawComparator<?> comparator() {
        return comparator;
    }

    public Partitioner partitioner() {
        return partitioner;
    }

    /** The combiner bound to this task's types, for the block encoder, with serdes of its own. */
    public Optional<BlockCombiner> blockCombiner() {
        return combiner.map(c -> new WritableBlockCombiner(c, comparator, newKeySerde(), newValueSerde()));
    }

    private KeyValueSerde newKeySerde() {
        return KeyValueSerde.forType(MpidConf.KEY_CLASS, conf.get(MpidConf.KEY_CLASS));
    }

    private KeyValueSerde newValueSerde() {
        return KeyValueSerde.forType(MpidConf.VALUE_CLASS, conf.get(MpidConf.VALUE_CLASS));
    }

    static Class<?> loadClass(String settingKey, String className) {
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return Class.forName(className.trim(), true, loader != null ? loader : TaskConf.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("Invalid value '" + className + "' for " + settingKey
                    + ": class not found on the job's classpath", e);
        }
    }

    private static <T> T instantiate(String settingKey, String className, Class<T> expected) {
        Class<?> type = loadClass(settingKey, className);
        if (!expected.isAssignableFrom(type)) {
            throw new IllegalArgumentException("Invalid value '" + className + "' for " + settingKey
                    + ": expected an implementation of " + expected.getName());
        }
        return expected.cast(ReflectionUtils.newInstance(type, null));
    }
}
