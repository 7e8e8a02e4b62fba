package org.lmctfy.internal.codec;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Reads and writes the spec records as JSON and as lmctfy's protobuf text format.
 *
 * <p>Both input forms become a tree of plain values (JSON through {@link Json}, which reads it with
 * Jackson's {@code ObjectMapper}, made on first use; the text format through {@link
 * TextFormatParser}) and bind through {@link TreeBinder}, so validation (unknown fields, types, the
 * records' constructors) has one path. Writing turns a record into a tree ({@link RecordTree}) and
 * writes that as text ({@link TextFormatWriter}) or JSON ({@link Json}); neither needs the mapper.
 * Text that starts with <code>{</code> is JSON; anything else is text format. Every failure is an
 * {@link LmctfyException} with {@link ErrorCode#INVALID_ARGUMENT}. Stateless and thread-safe.
 *
 * <p>Why not Jackson's own record binding: with it (an {@code ObjectMapper} reading and writing the
 * records), a CLI {@code create} under the tool's class data sharing archive took 170 to 270 ms
 * more (medians of 20 runs on a loaded 2-core machine: text spec 450 to 716 ms, its CPU time 390 to
 * 720 ms; JSON spec 450 to 622 ms), far above the 0.3 s a command may take. A plain {@code
 * ObjectMapper} still binds the same JSON alike ({@code PlainObjectMapperTest}), for users who bind
 * the records themselves.
 */
public final class SpecCodec {
  private SpecCodec() {}

  /**
   * Parses {@code text} (JSON or text format) into a {@code type}; blank text binds an empty
   * object. {@code what} names the input in messages ("spec", "run spec").
   */
  public static <T> T parse(String text, Class<T> type, String what) {
    if (text == null) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, what + ": text is null");
    }
    return TreeBinder.bind(isJson(text) ? Json.read(text) : TextFormatParser.parse(text), type);
  }

  /** {@code value} as compact JSON with lmctfy's field names; absent sections are left out. */
  public static String toJson(Object value) {
    return Json.write(RecordTree.of(value));
  }

  /** {@code value} in lmctfy's text format, fields in declaration order, one a line. */
  public static String toText(Object value) {
    return TextFormatWriter.write(RecordTree.of(value));
  }

  private static boolean isJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{';
      }
    }
    return false;
  }
}
