package org.lmctfy.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says which row of the "What's supported" table (docs/supported.md) a test proves, and how: the
 * thing itself (the value the kernel holds, what {@code spec()} or the call returns, the effect
 * where one is measurable), or a named refusal ({@link #refusal()}: the code a caller gets, with a
 * message naming the field and why). A test class tagged {@code kernel} (and not {@code needs-v1})
 * proves the row on a v2 kernel, the {@code v2} guests of .ci/kernel-vm; one not tagged {@code
 * kernel} proves it on the fake. {@code SupportedTableTest} holds the table to these.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Proves.All.class)
public @interface Proves {
  /** The row's first cell, without backquotes ({@code memory.high}, {@code Container.reclaim}). */
  String value();

  /** The code of the refusal proven ({@code FAILED_PRECONDITION}); empty for the thing itself. */
  String refusal() default "";

  /** The container of repeated {@link Proves}. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @interface All {
    Proves[] value();
  }
}
