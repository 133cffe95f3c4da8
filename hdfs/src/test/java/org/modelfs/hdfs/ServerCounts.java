package org.modelfs.hdfs;

import java.lang.reflect.Field;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.metrics.NameNodeMetrics;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/**
 * What a client asked of the test cluster: the NameNode's listings ({@code getListing}), file
 * statuses ({@code getFileInfo}) and opens ({@code getBlockLocations}), counted at the NameNode
 * by its own metrics (incremented before it answers; Hadoop keeps them in package-private fields,
 * read here by reflection), and the positional reads sent to DataNodes by {@link CountingDfs}
 * clients, counted as they are sent.
 */
record ServerCounts(long listings, long statuses, long opens, long dataNodeReads) {
  static ServerCounts now() throws ReflectiveOperationException {
    NameNodeMetrics nn = NameNode.getNameNodeMetrics();
    return new ServerCounts(counter(NameNodeMetrics.class, nn, "getListingOps"),
        counter(NameNodeMetrics.class, nn, "fileInfoOps"), counter(NameNodeMetrics.class, nn, "getBlockLocations"),
        CountingDfs.READS.get());
  }

  private static long counter(Class<?> type, Object metrics, String field) throws ReflectiveOperationException {
    Field f = type.getDeclaredField(field);
    f.setAccessible(true);
    return ((MutableCounterLong) f.get(metrics)).value();
  }

  /** What was asked since {@code before}. */
  ServerCounts minus(ServerCounts before) {
    return new ServerCounts(listings - before.listings, statuses - before.statuses, opens - before.opens,
        dataNodeReads - before.dataNodeReads);
  }

  /** NameNode requests of every kind counted here. */
  long nameNode() {
    return listings + statuses + opens;
  }
}
