package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.DagUtils;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.TezEdgeProperty;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.plan.UnionWork;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.Vertex;
import org.apache.tez.dag.api.VertexGroup;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.serviceplugins.api.ServicePluginsDescriptor;

/**
 * Hive's DAG of a TezWork as Hive's TezTask builds it for Tez ({@link DagUtils}: the job's and each vertex's
 * configuration, each vertex with its processor, root input and outputs, each edge with its output and input, unions
 * as vertex groups), as the plan Tez's client would submit, with the session's jars copied where the ranks read them.
 *
 * @param plan the DAG as Tez's application master would get it
 * @param dagName the DAG's name (Hive's, from the query)
 * @param classPath the URIs of the copied jars
 */
record HiveDagPlan(DAGPlan plan, String dagName, List<String> classPath) {
    HiveDagPlan {
        requireNonNull(plan, "plan is null");
        requireNonNull(dagName, "dagName is null");
        classPath = List.copyOf(classPath);
    }

    /**
     * The DAG of WORK; the session's ADD JAR jars and those the plan names are copied into JAR_DIR (on the file
     * system the ranks read: HDFS on a cluster), as Tez's client localizes them for its tasks.
     */
    static HiveDagPlan of(HiveConf conf, Context context, QueryPlan queryPlan, TezWork work, Path jarDir)
            throws Exception {
        DagUtils utils = DagUtils.getInstance();
        JobConf jobConf = utils.createConfiguration(conf, false);
        // As Tez's DagUtils (getTempFilesFromConf) and MR's ExecDriver ship them: the site's auxiliary jars
        // (hive.aux.jars.path), the session's reloadable ones (hive.reloadable.aux.jars.path, RELOAD) and its ADD JAR
        // jars; then the jars the plan names.
        Set<String> jars = new LinkedHashSet<>();
        SessionState session = SessionState.get();
        for (String list : new String[] {conf.getAuxJars(), session == null ? null : session.getReloadableAuxJars(),
                Utilities.getResourceFiles(conf, SessionState.ResourceType.JAR)}) {
            if (list != null && !list.isBlank()) {
                Arrays.stream(list.split(",")).map(String::strip).filter(jar -> !jar.isEmpty()).forEach(jars::add);
            }
        }
        String[] planJars = work.configureJobConfAndExtractJars(jobConf);
        if (planJars != null) {
            jars.addAll(List.of(planJars));
        }
        List<String> classPath = copyJars(jars, jarDir, conf);
        Path scratchDir = utils.createTezDir(context.getMRScratchDir(), conf);
        String dagName = utils.createDagName(conf, queryPlan);
        DAG dag = DAG.create(dagName);
        dag.setConf(HiveConf.ConfVars.HIVE_QUERY_ID.varname, HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID));
        // As TezTask.build: the vertices from the leaves up, each with the edges to its children.
        List<BaseWork> bottomUp = new ArrayList<>(work.getAllWork());
        Collections.reverse(bottomUp);
        Map<BaseWork, Vertex> vertices = new HashMap<>();
        Map<BaseWork, JobConf> vertexConfs = new HashMap<>();
        for (BaseWork unit : bottomUp) {
            if (unit instanceof UnionWork union) {
                addVertexGroup(dag, utils, work, union, vertices, vertexConfs);
                continue;
            }
            JobConf vertexConf = utils.initializeVertexConf(jobConf, context, unit);
            vertexConfs.put(unit, vertexConf);
            Vertex vertex = utils.createVertex(vertexConf, unit, scratchDir, work, Map.of());
            dag.addVertex(vertex);
            vertices.put(unit, vertex);
            for (BaseWork child : work.getChildren(unit)) {
                dag.addEdge(utils.createEdge(vertexConf, vertex, vertices.get(child),
                        work.getEdgeProperty(unit, child), child, work));
            }
        }
        // As TezTask does once its DAG is built: the plans it cached while building are the tasks' business now.
        Utilities.clearWorkMap(conf);
        DAGPlan plan = dag.createDag(jobConf, null, Map.of(), null, false, ServicePluginsDescriptor.create(true),
                null);
        return new HiveDagPlan(plan, dagName, classPath);
    }

    /** The plan's vertex NAME. */
    VertexPlan vertex(String name) {
        return plan.getVertexList().stream().filter(vertex -> vertex.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("No vertex " + name + " in the DAG plan"));
    }

    /** Copies each jar into JAR_DIR; returns the copies' URIs. */
    private static List<String> copyJars(Set<String> jars, Path jarDir, Configuration conf) throws IOException {
        List<String> copies = new ArrayList<>();
        FileSystem target = jarDir.getFileSystem(conf);
        for (String jar : jars) {
            Path source = new Path(jar);
            Path copy = new Path(jarDir, copies.size() + "-" + source.getName());
            FileUtil.copy(source.getFileSystem(conf), source, target, copy, false, conf);
            copies.add(target.makeQualified(copy).toUri().toString());
        }
        return copies;
    }

    /**
     * A union as TezTask.build makes it: a vertex group of its members, with a group edge to each of the union's own
     * children (from the first member's configuration: the members' outputs share key, value and partitioner).
     */
    private static void addVertexGroup(DAG dag, DagUtils utils, TezWork work, UnionWork union,
            Map<BaseWork, Vertex> vertices, Map<BaseWork, JobConf> vertexConfs) throws Exception {
        List<BaseWork> members = unionMembers(work, union);
        VertexGroup group = dag.createVertexGroup(union.getName(),
                members.stream().map(vertices::get).toArray(Vertex[]::new));
        for (BaseWork child : work.getChildren(union)) {
            if (!members.contains(child)) {
                dag.addEdge(utils.createEdge(group, vertexConfs.get(members.get(0)), vertices.get(child),
                        work.getEdgeProperty(union, child), child, work));
            }
        }
    }

    /** The vertices a union is made of (its children over CONTAINS edges). */
    static List<BaseWork> unionMembers(TezWork work, BaseWork union) {
        return work.getChildren(union).stream().filter(child -> work.getEdgeProperty(union, child).getEdgeType()
                == TezEdgeProperty.EdgeType.CONTAINS).toList();
    }
}
