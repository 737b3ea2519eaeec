package org.datampi.hive.client;

import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/** Hadoop finds job runners through this service: ours serves mapreduce.framework.name=datampi. */
public final class DataMPIClientProtocolProvider extends ClientProtocolProvider {
    @Override
    public ClientProtocol create(Configuration conf) {
        if (!DataMPIJobRunner.FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME))) {
            return null;
        }
        return new DataMPIJobRunner(conf);
    }

    @Override
    public ClientProtocol create(InetSocketAddress address, Configuration conf) {
        return create(conf);
    }

    @Override
    public void close(ClientProtocol clientProtocol) {
    }
}
