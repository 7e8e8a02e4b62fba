package org.lmctfy.examples.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * A view of a CgroupFs showing only some hierarchies (the benchmark's five v1 ones), or all of them
 * (also where none of those is mounted: pure v2); every operation goes to the CgroupFs it wraps,
 * reads through {@link #onRead}, writes through {@link #onWrite}.
 */
class OnlyHierarchies implements CgroupFs {
  private final CgroupFs fs;
  private final List<Hierarchy> shown;

  OnlyHierarchies(CgroupFs fs, List<String> labels) {
    this.fs = fs;
    List<Hierarchy> chosen =
        labels == null
            ? List.of()
            : fs.hierarchies().stream().filter(h -> labels.contains(h.label())).toList();
    this.shown =
        chosen.isEmpty() ? fs.hierarchies() : chosen; // pure v2: the unified one is all there is
  }

  /** Told of each file read (a benchmark records what the library reads); nothing by default. */
  void onRead(Hierarchy h, CgroupPath p, String file) {}

  /**
   * Told of each write before it is made (a benchmark records the library's limit writes); nothing
   * by default.
   */
  void onWrite(Hierarchy h, CgroupPath p, String file, String value) {}

  @Override
  public List<Hierarchy> hierarchies() {
    return shown;
  }

  @Override
  public Set<String> unmountedControllers() throws IOException {
    return fs.unmountedControllers();
  }

  @Override
  public boolean exists(Hierarchy h, CgroupPath p) throws IOException {
    return fs.exists(h, p);
  }

  @Override
  public void makeCgroup(Hierarchy h, CgroupPath p) throws IOException {
    fs.makeCgroup(h, p);
  }

  @Override
  public void removeCgroup(Hierarchy h, CgroupPath p) throws IOException {
    fs.removeCgroup(h, p);
  }

  @Override
  public List<String> children(Hierarchy h, CgroupPath p) throws IOException {
    return fs.children(h, p);
  }

  @Override
  public boolean hasFile(Hierarchy h, CgroupPath p, String f) throws IOException {
    return fs.hasFile(h, p, f);
  }

  @Override
  public String read(Hierarchy h, CgroupPath p, String f) throws IOException {
    onRead(h, p, f);
    return fs.read(h, p, f);
  }

  @Override
  public int readInto(Hierarchy h, CgroupPath p, String f, byte[] b) throws IOException {
    onRead(h, p, f);
    return fs.readInto(h, p, f, b);
  }

  @Override
  public CgroupWatcher watcher() throws IOException {
    return fs.watcher();
  }

  @Override
  public void write(Hierarchy h, CgroupPath p, String f, String v) throws IOException {
    onWrite(h, p, f, v);
    fs.write(h, p, f, v);
  }

  @Override
  public Optional<String> marker(Hierarchy h, CgroupPath p, String k) throws IOException {
    return fs.marker(h, p, k);
  }

  @Override
  public List<String> markerKeys(Hierarchy h, CgroupPath p) throws IOException {
    return fs.markerKeys(h, p);
  }

  @Override
  public void setMarker(Hierarchy h, CgroupPath p, String k, String v) throws IOException {
    fs.setMarker(h, p, k, v);
  }

  @Override
  public boolean addMarker(Hierarchy h, CgroupPath p, String k, String v) throws IOException {
    return fs.addMarker(h, p, k, v);
  }

  @Override
  public void removeMarker(Hierarchy h, CgroupPath p, String k) throws IOException {
    fs.removeMarker(h, p, k);
  }

  @Override
  public void chown(Hierarchy h, CgroupPath p, String f, int u, int g) throws IOException {
    fs.chown(h, p, f, u, g);
  }

  @Override
  public org.lmctfy.cgroupfs.Owner owner(Hierarchy h, CgroupPath p, String f) throws IOException {
    return fs.owner(h, p, f);
  }

  @Override
  public Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws IOException {
    return fs.cgroupsOf(pid);
  }

  @Override
  public Hierarchy mount(Set<String> c, String m) throws IOException {
    return fs.mount(c, m);
  }

  @Override
  public void unmount(Hierarchy h) throws IOException {
    fs.unmount(h);
  }

  @Override
  public void kill(long pid) throws IOException {
    fs.kill(pid);
  }

  @Override
  public Process start(ProcessBuilder c, Map<Hierarchy, CgroupPath> g) throws IOException {
    return fs.start(c, g);
  }

  @Override
  public Optional<Path> lockDirectory() {
    return fs.lockDirectory();
  }

  @Override
  public Set<Capability> capabilities() {
    // its watcher is fs's; no device filters, and five hierarchies are not the machine's tree
    return fs.capabilities().stream()
        .filter(c -> c != Capability.DEVICE_FILTERS && c != Capability.HOST_TREE)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  @Override
  public long selfPid() {
    return fs.selfPid();
  }
}
