package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Turns Jackson's failures to read JSON into a tree (syntax, duplicate keys, trailing tokens,
 * nesting limits) into {@link LmctfyException}s with {@link ErrorCode#INVALID_ARGUMENT} whose
 * message starts with the field's dotted path ({@code cpu.limit: syntax error at 1:21: ...}).
 * Binding failures are {@link TreeBinder}'s. Stateless and thread-safe.
 */
final class JacksonErrors {
  private JacksonErrors() {}

  static LmctfyException translate(JacksonException e) {
    StreamReadException syntax = findCause(e, StreamReadException.class);
    if (syntax != null) {
      return new LmctfyException(ErrorCode.INVALID_ARGUMENT, readMessage(syntax), e);
    }
    if (e instanceof JsonMappingException m) {
      return new LmctfyException(ErrorCode.INVALID_ARGUMENT, mappingMessage(m), e);
    }
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, "invalid spec: " + e.getOriginalMessage(), e);
  }

  /** A tree-level mismatch, such as a second JSON value after the first. */
  private static String mappingMessage(JsonMappingException e) {
    String path = path(e.getPath());
    String field = path.isEmpty() ? "spec" : path;
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return field + ": invalid value " + currentValue(e) + ": expected a message { ... }";
    }
    return field + ": " + e.getOriginalMessage();
  }

  private static String readMessage(StreamReadException e) {
    JsonLocation at = e.getLocation();
    String where =
        at == null ? "syntax error" : "syntax error at " + at.getLineNr() + ":" + at.getColumnNr();
    String path = e.getProcessor() == null ? "" : path(e.getProcessor().getParsingContext());
    return (path.isEmpty() ? "" : path + ": ") + where + ": " + e.getOriginalMessage();
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
        case VALUE_STRING -> ParseErrors.describe(p.getText());
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

  private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
