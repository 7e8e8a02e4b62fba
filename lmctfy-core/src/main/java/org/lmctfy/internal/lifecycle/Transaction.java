package org.lmctfy.internal.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.internal.errors.Errors;

/**
 * A group of {@link ResourceHandle}s that commit together or are undone together, newest first.
 * Used with try-with-resources: a body that throws before {@link #commit()} undoes every step, and
 * a failing undo is attached to the body's exception as suppressed.
 */
public final class Transaction implements AutoCloseable {
  private final Deque<ResourceHandle<?>> steps = new ArrayDeque<>();
  private boolean committed;

  /** Adds a step that is undone unless the transaction commits. */
  public <T> T add(ResourceHandle<T> step) {
    steps.push(step);
    return step.get();
  }

  public void commit() {
    committed = true;
    steps.forEach(ResourceHandle::commit);
    steps.clear();
  }

  /** Undoes every step not committed, newest first; goes on past failures and throws the first. */
  @Override
  public void close() {
    if (committed) {
      return;
    }
    LmctfyException first = null;
    while (!steps.isEmpty()) {
      try {
        steps.pop().close();
      } catch (LmctfyException e) {
        first = Errors.keepFirst(first, e);
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
