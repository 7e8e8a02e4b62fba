package org.lmctfy.internal.codec;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime-visible annotations of a class's methods and their parameters, read from its class
 * file ({@code RuntimeVisibleAnnotations}, {@code RuntimeVisibleParameterAnnotations}, JVMS
 * 4.7.16-17) rather than through {@code java.lang.reflect}. Reflection makes a dynamic proxy class
 * per annotation type, which cost a cold JVM 25-30 ms in the CLI's first spec parse; this reader
 * costs about a millisecond. It reads only what {@link RecordShape} asks for: annotation types and
 * their element values (strings and other constants as they are in the constant pool, enum
 * constants by name, arrays as lists, nested annotations).
 *
 * <p>Immutable and thread-safe once read.
 */
final class ClassFileAnnotations {
  /** One annotation: its type's binary name and its explicitly given element values. */
  record Found(String type, Map<String, Object> values) {}

  /** The annotations of one method and of each of its parameters (absent ones: empty lists). */
  record Annotated(List<Found> annotations, List<List<Found>> parameters) {
    static final Annotated NONE = new Annotated(List.of(), List.of());

    /** The annotation of {@code type} on the method, or null. */
    Found annotation(Class<?> type) {
      return find(annotations, type.getName());
    }

    /** The annotation of {@code type} on parameter {@code index}, or null. */
    Found parameter(int index, Class<?> type) {
      return parameter(index, type.getName());
    }

    /** The annotation of the type named {@code type} (binary name) on parameter {@code index}. */
    Found parameter(int index, String type) {
      return index < parameters.size() ? find(parameters.get(index), type) : null;
    }

    private static Found find(List<Found> found, String type) {
      for (Found f : found) {
        if (f.type().equals(type)) {
          return f;
        }
      }
      return null;
    }
  }

  private final Map<String, Annotated> methods = new HashMap<>();

  private ClassFileAnnotations(DataInputStream in) throws IOException {
    in.skipNBytes(8); // magic, minor and major version
    Object[] pool = new Object[in.readUnsignedShort()];
    for (int i = 1; i < pool.length; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> pool[i] = in.readUTF();
        case 3 -> pool[i] = in.readInt();
        case 4 -> pool[i] = in.readFloat();
        case 5 -> pool[i++] = in.readLong();
        case 6 -> pool[i++] = in.readDouble();
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
        case 15 -> in.skipNBytes(3);
        case 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    in.skipNBytes(6); // access flags, this class, super class
    in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
    for (int fields = in.readUnsignedShort(); fields > 0; fields--) {
      in.skipNBytes(6);
      for (int attributes = in.readUnsignedShort(); attributes > 0; attributes--) {
        in.skipNBytes(2);
        in.skipNBytes(in.readInt());
      }
    }
    for (int count = in.readUnsignedShort(); count > 0; count--) {
      in.skipNBytes(2);
      String key = (String) pool[in.readUnsignedShort()] + pool[in.readUnsignedShort()];
      List<Found> annotations = List.of();
      List<List<Found>> parameters = List.of();
      for (int attributes = in.readUnsignedShort(); attributes > 0; attributes--) {
        String name = (String) pool[in.readUnsignedShort()];
        int length = in.readInt();
        if (name.equals("RuntimeVisibleAnnotations")) {
          annotations = annotations(in, pool);
        } else if (name.equals("RuntimeVisibleParameterAnnotations")) {
          parameters = new ArrayList<>();
          for (int n = in.readUnsignedByte(); n > 0; n--) {
            parameters.add(annotations(in, pool));
          }
        } else {
          in.skipNBytes(length);
        }
      }
      methods.put(key, new Annotated(annotations, parameters));
    }
  }

  /** The annotations of {@code type}'s class file; fails if the class file cannot be read. */
  static ClassFileAnnotations of(Class<?> type) {
    String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
    try (InputStream in = type.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("no class file for " + type.getName());
      }
      return new ClassFileAnnotations(new DataInputStream(new BufferedInputStream(in)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the class file of " + type.getName(), e);
    }
  }

  /**
   * The annotations of the method {@code name} with JVM {@code descriptor}; NONE if it has none.
   */
  Annotated method(String name, String descriptor) {
    return methods.getOrDefault(name + descriptor, Annotated.NONE);
  }

  /** The JVM descriptor of a method taking {@code parameters} and returning {@code result}. */
  static String descriptor(Class<?>[] parameters, Class<?> result) {
    StringBuilder out = new StringBuilder("(");
    for (Class<?> p : parameters) {
      out.append(descriptor(p));
    }
    return out.append(')').append(descriptor(result)).toString();
  }

  private static String descriptor(Class<?> type) {
    if (type.isArray()) {
      return type.getName().replace('.', '/');
    }
    if (!type.isPrimitive()) {
      return "L" + type.getName().replace('.', '/') + ";";
    }
    return switch (type.getName()) {
      case "long" -> "J";
      case "boolean" -> "Z";
      case "void" -> "V";
      default -> type.getName().substring(0, 1).toUpperCase(java.util.Locale.ROOT);
    };
  }

  private static List<Found> annotations(DataInputStream in, Object[] pool) throws IOException {
    List<Found> out = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      out.add(annotation(in, pool));
    }
    return out;
  }

  private static Found annotation(DataInputStream in, Object[] pool) throws IOException {
    String type = (String) pool[in.readUnsignedShort()]; // "Lcom/example/Name;"
    Map<String, Object> values = new HashMap<>();
    for (int pairs = in.readUnsignedShort(); pairs > 0; pairs--) {
      String name = (String) pool[in.readUnsignedShort()];
      values.put(name, value(in, pool));
    }
    return new Found(type.substring(1, type.length() - 1).replace('/', '.'), values);
  }

  private static Object value(DataInputStream in, Object[] pool) throws IOException {
    int tag = in.readUnsignedByte();
    switch (tag) {
      case 'e' -> {
        in.skipNBytes(2); // the enum's type
        return pool[in.readUnsignedShort()];
      }
      case '@' -> {
        return annotation(in, pool);
      }
      case '[' -> {
        List<Object> values = new ArrayList<>();
        for (int n = in.readUnsignedShort(); n > 0; n--) {
          values.add(value(in, pool));
        }
        return values;
      }
      default -> {
        return pool[in.readUnsignedShort()]; // a constant, a string or a class descriptor
      }
    }
  }
}
