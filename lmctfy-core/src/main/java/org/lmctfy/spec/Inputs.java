package org.lmctfy.spec;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks on record components that the text format and JSON give in a form of their own; the codec
 * reads them from the class files by name ({@code internal.codec.RecordShape}), so they need not be
 * visible to it, and a user's own Jackson mapper ignores them.
 */
final class Inputs {
  private Inputs() {}

  /** A number of bytes that may also be given as a size with a binary suffix ({@code 256M}). */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface ByteSize {}

  /** {@code cpu.mask}: a CPU list ({@code "0-3,6"}) or lmctfy's bitmask message ({@code data}). */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface CpuMask {}
}
