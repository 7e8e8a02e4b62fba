package org.lmctfy.internal.resources;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * unified (v2): each file written as given, after every typed field, and checked to show the value
 * written; recorded as one field per file, {@code unified.<file>}, whose controller is the file's.
 * A REPLACE must give every file the container has: lmctfy cannot know the default of a file the
 * spec does not model.
 */
final class UnifiedHandler implements ResourceHandler {
  static final String PREFIX = "unified.";

  /** One field per file: {@code unified.<file>}. */
  private static final List<Field> FIELDS =
      List.of(new Field(PREFIX + "*", null, List.of(), List.of(), ContainerSpec::unified));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void given(ContainerSpec spec, Collection<String> out) {
    spec.unified().keySet().forEach(file -> out.add(PREFIX + file));
  }

  @Override
  public String controllerOf(String field) {
    return field.startsWith(PREFIX)
        ? field.substring(PREFIX.length(), field.indexOf('.', PREFIX.length()))
        : null;
  }

  @Override
  public boolean anyOf(Set<String> fields) {
    return fields.stream().anyMatch(f -> f.startsWith(PREFIX));
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning out) {
    for (Map.Entry<String, String> f : spec.unified().entrySet()) {
      String field = PREFIX + f.getKey();
      String controller = f.getKey().substring(0, f.getKey().indexOf('.')); // controller.file
      Hierarchy h =
          view.unified()
              .orElseThrow(
                  () ->
                      new LmctfyException(
                          ErrorCode.FAILED_PRECONDITION,
                          field + " needs cgroup v2, and no cgroup2 hierarchy is mounted"));
      if (!h.has(controller)) {
        throw ContainerView.notOn(
            h, field, "the unified hierarchy does not carry the " + controller + " controller");
      }
      out.writes.add(
          new FileWrite(h, f.getKey(), f.getValue(), field, null, FileWrite.Check.SHOWS_VALUE));
    }
  }

  /** The files of {@code fields}, as the kernel shows them now (stripped). */
  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    Map<String, String> files = new TreeMap<>();
    for (String f : fields) {
      if (f.startsWith(PREFIX)) {
        String file = f.substring(PREFIX.length());
        files.put(file, view.readSelf(view.unified().orElseThrow(), file));
      }
    }
    out.unified(files);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.unified(spec.unified());
  }

  @Override
  public void checkReplace(ContainerSpec spec, Set<String> recorded, String operation) {
    for (String field : recorded) {
      if (field.startsWith(PREFIX)
          && !spec.unified().containsKey(field.substring(PREFIX.length()))) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            operation
                + ": REPLACE would leave "
                + field
                + " as it is: lmctfy cannot know the default of a file the spec does not model; give it in the spec "
                + "with the value it should have");
      }
    }
  }
}
