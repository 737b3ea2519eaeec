package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.dag.api.event.VertexState;
import org.apache.tez.runtime.api.InputInitializerContext;

/**
 * What Hive's split generator (HiveSplitGenerator, a Tez input initializer) sees of "the application master" when the
 * client runs it for a root vertex: the input's payload and names, and the resources that decide how many splits it
 * makes (the stage's ranks, each one task at a time with the rank's heap), and for dynamic partition pruning the task
 * counts of the vertices whose events it waits for. Those vertices have run when the generator does (rank 0 runs it
 * then, {@link VertexSplits}), so their SUCCEEDED updates are queued before it starts, not sent on registration.
 * The counters it adds (HiveInputCounters: directories, files, splits) are kept for the stage's summary. Where the
 * query places splits by rank ({@link RankAffinity}), the input's configuration tells the provider the stage's ranks.
 */
final class SplitGeneratorContext implements InputInitializerContext {
    private final ApplicationId applicationId;
    private final String dagName;
    private final Configuration vertexConf;
    private final String inputName;
    private final UserPayload inputPayload;
    private final UserPayload initializerPayload;
    private final int vertexId;
    private final int ranks;
    private final int taskMemoryMb;
    private final Map<String, Integer> sourceTasks;
    private final TezCounters counters = new TezCounters();

    /** @param sourceTasks the tasks of each vertex whose events prune the input, all of which have run */
    SplitGeneratorContext(ApplicationId applicationId, String dagName, Configuration vertexConf, String inputName,
            UserPayload inputPayload, UserPayload initializerPayload, int vertexId, int ranks, int taskMemoryMb,
            Map<String, Integer> sourceTasks) throws IOException {
        this.applicationId = requireNonNull(applicationId, "applicationId is null");
        this.dagName = requireNonNull(dagName, "dagName is null");
        this.vertexConf = requireNonNull(vertexConf, "vertexConf is null");
        this.inputName = requireNonNull(inputName, "inputName is null");
        this.inputPayload = RankAffinity.tellRanks(inputPayload, vertexConf, ranks);
        this.initializerPayload = initializerPayload;
        this.vertexId = vertexId;
        this.ranks = ranks;
        this.taskMemoryMb = taskMemoryMb;
        this.sourceTasks = Map.copyOf(sourceTasks);
    }

    /** What the split generator counted. */
    TezCounters counters() {
        return counters;
    }

    @Override
    public ApplicationId getApplicationId() {
        return applicationId;
    }

    @Override
    public String getDAGName() {
        return dagName;
    }

    @Override
    public Configuration getVertexConfiguration() {
        return vertexConf;
    }

    @Override
    public String getInputName() {
        return inputName;
    }

    @Override
    public UserPayload getInputUserPayload() {
        return inputPayload;
    }

    @Override
    public UserPayload getUserPayload() {
        return initializerPayload;
    }

    @Override
    public int getNumTasks() {
        return -1;
    }

    @Override
    public Resource getVertexTaskResource() {
        return Resource.newInstance(taskMemoryMb, 1);
    }

    @Override
    public int getVertexId() {
        return vertexId;
    }

    @Override
    public Resource getTotalAvailableResource() {
        return Resource.newInstance((long) taskMemoryMb * ranks, ranks);
    }

    @Override
    public int getNumClusterNodes() {
        return ranks;
    }

    @Override
    public int getDAGAttemptNumber() {
        return 1;
    }

    @Override
    public int getVertexNumTasks(String vertexName) {
        return source(vertexName);
    }

    @Override
    public void registerForVertexStateUpdates(String vertexName, Set<VertexState> stateSet) {
        // Its SUCCEEDED update is queued already (the class comment); only a vertex it was told of can succeed.
        source(vertexName);
    }

    private int source(String vertexName) {
        Integer tasks = sourceTasks.get(vertexName);
        if (tasks == null) {
            throw new IllegalStateException("The split generator of " + inputName + " asked for vertex " + vertexName
                    + ", which is not one of the vertices whose events prune it: " + sourceTasks.keySet());
        }
        return tasks;
    }

    @Override
    public void addCounters(TezCounters tezCounters) {
        counters.incrAllCounters(tezCounters);
    }
}
