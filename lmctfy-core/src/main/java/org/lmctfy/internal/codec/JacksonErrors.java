package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Turns Jackson's failures into {@link LmctfyException}s with {@link ErrorCode#INVALID_ARGUMENT}
 * whose message starts with the field's dotted path ({@code blockio.device_limits[1].read_bps}).
 */
final class JacksonErrors {
  private JacksonErrors() {}

  static LmctfyException translate(Exception e) {
    LmctfyException validation = findCause(e, LmctfyException.class);
    if (validation != null) {
      String path = e instanceof JsonMappingException m ? path(m.getPath()) : "";
      String message = withIndexes(validation.getMessage(), path);
      return message.equals(validation.getMessage()) ? validation
          : new LmctfyException(validation.code(), message, validation);
    }
    StreamReadException syntax = findCause(e, StreamReadException.class);
    if (syntax != null && !(syntax instanceof InputCoercionException)) {
      return new LmctfyException(ErrorCode.INVALID_ARGUMENT, readMessage(syntax), e);
    }
    if (e instanceof JsonMappingException m) {
      return new LmctfyException(ErrorCode.INVALID_ARGUMENT, mappingMessage(m), e);
    }
    String message = e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage();
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, "invalid spec: " + message, e);
  }

  private static String mappingMessage(JsonMappingException e) {
    String path = path(e.getPath());
    String field = path.isEmpty() ? "spec" : path;
    InputCoercionException range = findCause(e, InputCoercionException.class);
    if (range != null) {
      return field + ": invalid value: " + range.getOriginalMessage();
    }
    if (e instanceof UnrecognizedPropertyException u) {
      Collection<Object> known = u.getKnownPropertyIds();
      return field + ": unknown field" + (known == null || known.isEmpty() ? ""
          : "; known fields: " + new TreeSet<>(known.stream().map(String::valueOf).toList())
              .stream().collect(Collectors.joining(", ")));
    }
    if (e instanceof InvalidNullException) {
      return field + ": required";
    }
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      Class<?> target = mismatch.getTargetType();
      Object got = e instanceof InvalidFormatException f ? Checks.describe(f.getValue())
          : currentValue(e);
      return field + ": invalid value " + got + ": expected " + expected(target);
    }
    return field + ": " + e.getOriginalMessage();
  }

  private static String readMessage(StreamReadException e) {
    JsonLocation at = e.getLocation();
    String where = at == null ? "syntax error" : "syntax error at " + at.getLineNr() + ":"
        + at.getColumnNr();
    String path = e.getProcessor() == null ? "" : path(e.getProcessor().getParsingContext());
    return (path.isEmpty() ? "" : path + ": ") + where + ": " + e.getOriginalMessage();
  }

  /** What a value of {@code type} looks like, for "expected ..." messages. */
  private static String expected(Class<?> type) {
    if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
      return "an integer";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type.isEnum()) {
      return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf)
          .collect(Collectors.joining(", "));
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "a message of names to strings";
    }
    return "a message { ... }";
  }

  /** The value the parser stands on, as a message shows it. */
  private static String currentValue(JsonMappingException e) {
    if (!(e.getProcessor() instanceof JsonParser p)) {
      return "(unknown)";
    }
    JsonToken token = p.currentToken();
    if (token == null) {
      return "(none)";
    }
    try {
      return switch (token) {
        case START_ARRAY -> "[...] (a list, or a field given more than once)";
        case START_OBJECT -> "{...}";
        case VALUE_STRING -> Checks.describe(p.getText());
        default -> p.getText();
      };
    } catch (IOException ioe) {
      return token.asString();
    }
  }

  private static String path(List<JsonMappingException.Reference> refs) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference ref : refs) {
      if (ref.getFieldName() != null) {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  private static String path(JsonStreamContext context) {
    List<String> parts = new ArrayList<>();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.add(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
      } else if (c.getCurrentName() != null) {
        parts.add(0, "." + c.getCurrentName());
      }
    }
    String joined = String.join("", parts);
    return joined.startsWith(".") ? joined.substring(1) : joined;
  }

  /**
   * Fills the empty brackets of a validation message ({@code device.rules[].access}) with the
   * indexes of {@code path} ({@code device.rules[2]}), when the message names that field.
   */
  static String withIndexes(String message, String path) {
    if (path.indexOf('[') < 0) {
      return message;
    }
    return message.replace(path.replaceAll("\\[\\d+\\]", "[]"), path);
  }

  private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
