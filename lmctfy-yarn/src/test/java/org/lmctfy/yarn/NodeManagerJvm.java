package org.lmctfy.yarn;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * A NodeManager alone in its JVM, for {@link KernelYarnRecoveryTest} to SIGKILL and start again:
 * {@code java NodeManagerJvm <yarn-site.xml>}. Prints {@code started} once it runs; stops on
 * SIGTERM, as a NodeManager's service does.
 */
public final class NodeManagerJvm {
  private NodeManagerJvm() {}

  public static void main(String[] args) {
    YarnConfiguration conf = new YarnConfiguration();
    conf.addResource(new Path(args[0]));
    NodeManager nm = new NodeManager();
    Runtime.getRuntime().addShutdownHook(new Thread(nm::stop));
    nm.init(conf);
    nm.disableWebServer(); // its web server needs Jersey, which hadoop-client-minicluster leaves
    // out
    nm.start();
    System.out.println("started");
  }
}
