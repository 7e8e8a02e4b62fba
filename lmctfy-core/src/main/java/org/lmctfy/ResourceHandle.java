package org.lmctfy;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A piece of state that was created and that destroys itself on {@link #close()} unless {@link
 * #commit()} was called first.
 *
 * <p>Use it with try-with-resources so that every path out of a block that did not reach its commit
 * undoes what was made, including paths that throw:
 *
 * <pre>{@code
 * try (ResourceHandle<Container> handle = api.createHandle("/job", spec)) {
 *   Container job = handle.get();
 *   job.run(List.of("/bin/true"), RunSpec.detached());
 *   return handle.commit();   // keep it: close() now does nothing
 * }                           // not committed: the container is destroyed
 * }</pre>
 *
 * <p>{@code close()} is idempotent. If the undo itself fails, {@code close()} throws the failure as
 * an {@link LmctfyException}; when {@code close()} runs because the block threw, Java attaches that
 * failure to the block's exception as suppressed, so neither is lost.
 *
 * <p>Not thread-safe: a handle belongs to the code that created the state.
 *
 * @param <T> what the handle guards
 * @since 0.1
 */
public final class ResourceHandle<T> implements AutoCloseable {

  /** What undoes the state a handle guards. */
  @FunctionalInterface
  public interface Undo {
    /**
     * Undoes the state; throws if it could not.
     *
     * @throws Exception if it fails
     */
    void run() throws Exception;
  }

  private final T value;
  private final Supplier<String> description;
  private final Undo undo;
  private boolean settled;

  private ResourceHandle(T value, Supplier<String> description, Undo undo) {
    this.value = value;
    this.description = Objects.requireNonNull(description, "description");
    this.undo = Objects.requireNonNull(undo, "undo");
  }

  /**
   * A handle for {@code value} that runs {@code undo} on close unless committed.
   *
   * @param description what was made, for error messages ({@code "cgroup memory:/a/b"})
   * @param <T> the type of the guarded value
   */
  public static <T> ResourceHandle<T> of(T value, String description, Undo undo) {
    Objects.requireNonNull(description, "description");
    return new ResourceHandle<>(value, () -> description, undo);
  }

  /**
   * As {@link #of(Object, String, Undo)}, with a description built only if a message needs it: for
   * handles made by the thousand, most of them committed.
   *
   * @param <T> the type of the guarded value
   */
  public static <T> ResourceHandle<T> of(T value, Supplier<String> description, Undo undo) {
    return new ResourceHandle<>(value, description, undo);
  }

  /** The guarded value, committed or not. */
  public T get() {
    return value;
  }

  /** Keeps the state: {@link #close()} will do nothing. Returns the guarded value. */
  public T commit() {
    settled = true;
    return value;
  }

  /** Whether {@link #commit()} was called or the state was already undone. */
  public boolean isSettled() {
    return settled;
  }

  /** Undoes the state unless committed or already undone. */
  @Override
  public void close() {
    if (settled) {
      return;
    }
    settled = true;
    try {
      undo.run();
    } catch (LmctfyException e) {
      throw e;
    } catch (Exception e) {
      throw new LmctfyException(
          ErrorCode.UNAVAILABLE, "could not undo " + description.get() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "ResourceHandle[" + description.get() + (settled ? ", settled]" : "]");
  }
}
