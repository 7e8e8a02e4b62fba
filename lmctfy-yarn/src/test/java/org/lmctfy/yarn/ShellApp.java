package org.lmctfy.yarn;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;

/**
 * A YARN application whose master is this JVM (an unmanaged application master, as Hadoop's
 * UnmanagedAMLauncher runs one): it asks the ResourceManager for containers, starts a shell command
 * in each through their NodeManager and collects how they ended.
 */
final class ShellApp implements AutoCloseable {
  private final YarnClient client;
  final ApplicationId id;
  private final AMRMClient<ContainerRequest> rm;
  private final NMClient nm;
  private final Map<ContainerId, ContainerStatus> completed = new HashMap<>();

  private ShellApp(
      Configuration conf, YarnClient client, ApplicationId id, AMRMClient<ContainerRequest> rm) {
    this.client = client;
    this.id = id;
    this.rm = rm;
    this.nm = NMClient.createNMClient();
    nm.init(conf);
    nm.start();
  }

  /** Submits an application named {@code name} and registers this JVM as its master. */
  static ShellApp start(Configuration given, String name) throws Exception {
    Configuration conf = new Configuration(given);
    // a NodeManager's first startContainers takes more than Hadoop's 60 s in the emulated guests
    long timeout = KernelYarnClusterTest.patience(60).toMillis();
    conf.setLong("ipc.client.rpc-timeout.ms", timeout);
    conf.setLong("ipc.ping.interval", timeout);
    YarnClient client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
    ApplicationSubmissionContext ctx = client.createApplication().getApplicationSubmissionContext();
    ctx.setApplicationName(name);
    ctx.setUnmanagedAM(true);
    ctx.setQueue("default");
    ctx.setResource(Resource.newInstance(32, 1));
    ctx.setAMContainerSpec(
        ContainerLaunchContext.newInstance(Map.of(), Map.of(), List.of(), null, null, null));
    client.submitApplication(ctx);
    ApplicationId id = ctx.getApplicationId();
    Token<AMRMTokenIdentifier> token = null;
    ApplicationReport report = null;
    for (int i = 0; i < 1200 && token == null; i++) {
      report = client.getApplicationReport(id);
      if (report.getYarnApplicationState() == YarnApplicationState.ACCEPTED) {
        token = client.getAMRMToken(id);
      }
      if (token == null) {
        Thread.sleep(100);
      }
    }
    if (token == null) {
      throw new IllegalStateException("no AMRM token for " + id + ": " + report);
    }
    token.setService(ClientRMProxy.getAMRMTokenService(conf));
    UserGroupInformation ugi =
        UserGroupInformation.createRemoteUser(report.getCurrentApplicationAttemptId().toString());
    ugi.addToken(token);
    AMRMClient<ContainerRequest> rm =
        ugi.doAs(
            (java.security.PrivilegedExceptionAction<AMRMClient<ContainerRequest>>)
                () -> {
                  AMRMClient<ContainerRequest> c = AMRMClient.createAMRMClient();
                  c.init(conf);
                  c.start();
                  c.registerApplicationMaster("", 0, "");
                  return c;
                });
    return new ShellApp(conf, client, id, rm);
  }

  /** {@code n} containers of {@code mb} and {@code vcores}, once the scheduler gives them. */
  List<Container> allocate(int n, int mb, int vcores, Duration timeout) throws Exception {
    for (int i = 0; i < n; i++) {
      rm.addContainerRequest(
          new ContainerRequest(
              Resource.newInstance(mb, vcores), null, null, Priority.newInstance(0)));
    }
    List<Container> out = new ArrayList<>();
    long end = System.nanoTime() + timeout.toNanos();
    while (out.size() < n) {
      var response = rm.allocate(0.1f);
      out.addAll(response.getAllocatedContainers());
      response.getCompletedContainersStatuses().forEach(s -> completed.put(s.getContainerId(), s));
      if (out.size() < n) {
        if (System.nanoTime() > end) {
          throw new AssertionError("got " + out.size() + " of " + n + " containers in " + timeout);
        }
        Thread.sleep(20);
      }
    }
    for (int i = 0; i < n; i++) { // the requests are met: no more of them
      rm.removeContainerRequest(
          new ContainerRequest(
              Resource.newInstance(mb, vcores), null, null, Priority.newInstance(0)));
    }
    return out;
  }

  /** Starts {@code command} (run by bash) in {@code c} with {@code env}. */
  void start(Container c, String command, Map<String, String> env) throws Exception {
    nm.startContainer(
        c, ContainerLaunchContext.newInstance(Map.of(), env, List.of(command), null, null, null));
  }

  /** How the containers {@code ids} ended, once all have. */
  Map<ContainerId, ContainerStatus> awaitCompleted(Set<ContainerId> ids, Duration timeout)
      throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (!completed.keySet().containsAll(ids)) {
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "completed in " + timeout + ": " + completed.keySet() + " of " + ids);
      }
      rm.allocate(0.1f)
          .getCompletedContainersStatuses()
          .forEach(s -> completed.put(s.getContainerId(), s));
      Thread.sleep(50);
    }
    Map<ContainerId, ContainerStatus> out = new HashMap<>();
    ids.forEach(i -> out.put(i, completed.get(i)));
    return out;
  }

  /** Ends the application as its master would. */
  void finish() throws Exception {
    rm.unregisterApplicationMaster(FinalApplicationStatus.SUCCEEDED, "", "");
  }

  /** Kills the application, as {@code yarn application -kill} does. */
  void kill() throws Exception {
    client.killApplication(id);
  }

  @Override
  public void close() throws IOException {
    nm.stop();
    rm.stop();
    client.stop();
  }
}
