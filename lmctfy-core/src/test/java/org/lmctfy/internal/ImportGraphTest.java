package org.lmctfy.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The import graph of lmctfy-core: data flows one way (facade, lifecycle, resources and processes,
 * the SPI, the kernel), no package of {@code org.lmctfy.internal} reaches back up, and the rules
 * every floor needs (the errno table, the libc binding) sit on the ground floor.
 */
class ImportGraphTest {
  private static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("org.lmctfy");

  private static final String[] PUBLIC = {"org.lmctfy", "org.lmctfy.spec", "org.lmctfy.cgroupfs"};

  @Test
  void noInternalPackageIsInACircle() {
    slices().matching("org.lmctfy.internal.(*)..").should().beFreeOfCycles().check(CORE);
  }

  @Test
  void noPublicPackageDependsOnTheLifecycle() {
    noClasses()
        .that()
        .resideInAnyPackage(PUBLIC)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.lmctfy.internal.lifecycle..")
        .check(CORE);
  }

  @Test
  void onlyTheEntryPointReachesTheFacadeAndTheValuesAndTheSpiNeverDo() {
    noClasses()
        .that()
        .resideInAnyPackage(PUBLIC)
        .and()
        .doNotHaveFullyQualifiedName("org.lmctfy.ContainerApi")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.lmctfy.internal.facade..")
        .check(CORE);
  }

  @Test
  void nothingAboveTheKernelBackendNamesItButTheEntryPointThatOpensIt() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.lmctfy.internal.kernel..")
        .and()
        .doNotHaveFullyQualifiedName("org.lmctfy.ContainerApi")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.lmctfy.internal.kernel..")
        .check(CORE);
  }

  @Test
  void theErrnoTableUsesNothingInternal() {
    classes()
        .that()
        .resideInAPackage("org.lmctfy.internal.errors..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..", "org.lmctfy", "org.lmctfy.cgroupfs", "org.lmctfy.internal.errors..")
        .check(CORE);
  }

  @Test
  void theLibcBindingUsesNothingInternal() {
    classes()
        .that()
        .resideInAPackage("org.lmctfy.internal.libc..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "com.sun.jna..", "org.lmctfy.internal.libc..")
        .check(CORE);
  }

  @Test
  void onlyTheLibcBindingBindsNativeCode() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.lmctfy.internal.libc..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("com.sun.jna.Native")
        .check(CORE);
  }
}
