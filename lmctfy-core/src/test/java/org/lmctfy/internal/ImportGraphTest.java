package org.lmctfy.internal;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * The import graph of lmctfy-core: data flows one way (facade, lifecycle, resources and processes,
 * the SPI, the kernel), no package of {@code org.lmctfy.internal} reaches back up, and the rules
 * every floor needs (the errno table, the libc binding) sit on the ground floor. The kernel backend
 * is reached only through the SPI and reaches nothing above it; the three SPI packages speak only
 * their own types (no spec record); the spec records use the codec only to read and write
 * themselves.
 */
class ImportGraphTest {
  private static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("org.lmctfy");

  private static final String[] SPI = {
    "org.lmctfy.cgroupfs", "org.lmctfy.vhost", "org.lmctfy.systemdbus"
  };

  private static final String[] PUBLIC = {
    "org.lmctfy",
    "org.lmctfy.spec",
    "org.lmctfy.cgroupfs",
    "org.lmctfy.vhost",
    "org.lmctfy.systemdbus"
  };

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
  void theKernelBackendReachesOnlyTheSpiAndTheGroundFloor() {
    classes()
        .that()
        .resideInAPackage("org.lmctfy.internal.kernel..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "java..",
                    "com.sun.jna..",
                    "org.slf4j..",
                    "org.lmctfy.cgroupfs",
                    "org.lmctfy.vhost",
                    "org.lmctfy.internal.kernel..",
                    "org.lmctfy.internal.libc..",
                    "org.lmctfy.internal.errors..",
                    "org.lmctfy.internal.codec..")
                // the exception every floor throws, with its codes: not the facade
                .or(belongToAnyOf(LmctfyException.class, ErrorCode.class)))
        .check(CORE);
  }

  @Test
  void theSpiPackagesSpeakOnlyTheirOwnTypes() {
    classes()
        .that()
        .resideInAnyPackage(SPI)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "org.jspecify..",
            "org.lmctfy.cgroupfs",
            "org.lmctfy.vhost",
            "org.lmctfy.systemdbus")
        .check(CORE);
  }

  @Test
  void theSpecRecordsReachTheCodecOnlyToReadAndWriteThemselves() {
    // parse, toJson and toText; and CpuSpec's lists, in the kernel's format that the cpu handler
    // reads too (docs/internals.md says why)
    noClasses()
        .that()
        .resideInAPackage("org.lmctfy.spec")
        .should()
        .dependOnClassesThat(
            resideInAPackage("org.lmctfy.internal..")
                .and(not(belongToAnyOf(SpecCodec.class, CpuLists.class))))
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
