package org.lmctfy.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextFormatWithoutDatabindTest {

  /** A fresh loader of this test's class path, which tells what it has loaded. */
  private static final class Loader extends URLClassLoader {
    Loader() throws Exception {
      super(classPath(), ClassLoader.getPlatformClassLoader());
    }

    boolean loaded(String name) {
      return findLoadedClass(name) != null;
    }

    private static URL[] classPath() throws Exception {
      List<URL> urls = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        urls.add(new File(entry).toURI().toURL());
      }
      return urls.toArray(new URL[0]);
    }
  }

  @Test
  void parsingAndPrintingTheTextFormatLoadsNoJacksonDatabindClass() throws Exception {
    try (Loader loader = new Loader()) {
      Class<?> spec = loader.loadClass("org.lmctfy.spec.ContainerSpec");
      Object parsed =
          spec.getMethod("parse", String.class)
              .invoke(
                  null,
                  "cpu { limit: 500 mask { data: 5 } } memory { limit: 104857600 }"
                      + " device { rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: 'rw' } }");
      Object text = spec.getMethod("toText").invoke(parsed);

      assertThat(text).asString().contains("mask: \"0,2\"", "access: \"rw\"");
      assertThat(loader.loaded("org.lmctfy.internal.codec.TreeBinder")).isTrue();
      assertThat(loader.loaded("com.fasterxml.jackson.databind.ObjectMapper")).isFalse();
      assertThat(loader.loaded("com.fasterxml.jackson.databind.JsonNode")).isFalse();
    }
  }
}
