package io.hops.namenode;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering of hops-namenode's packages (docs/development.md, "Package layering"): the
 * subpackages of {@code io.hops.namenode} form no cycle, and the root package, which wires them, is
 * reached only from itself, and from {@code cli}, above it, for {@code HopsNameNode} alone.
 */
@AnalyzeClasses(packages = "io.hops.namenode", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageLayeringTest {
  private static final String ROOT = "io.hops.namenode";

  @ArchTest
  static final ArchRule subpackagesFormNoCycle =
      slices().matching(ROOT + ".(*)..").should().beFreeOfCycles();

  /**
   * The root package depends on every subpackage (it builds them), so any use of it from a
   * subpackage is a cycle. Only the root itself is left: every subpackage takes its collaborators
   * from the wiring.
   */
  private static final String[] STILL_USE_THE_ROOT = {
    ROOT,
  };

  /**
   * Above the root, not below: {@code cli}'s daemon commands ({@code namenode}, {@code cluster},
   * {@code demo}) start namenodes in their process. It needs nothing of the root but the namenode.
   */
  private static final String ABOVE_THE_ROOT = ROOT + ".cli..";

  @ArchTest
  static final ArchRule cliUsesOnlyHopsNameNodeOfTheRoot =
      noClasses()
          .that()
          .resideInAPackage(ABOVE_THE_ROOT)
          .should()
          .dependOnClassesThat(resideInAPackage(ROOT).and(not(equivalentTo(HopsNameNode.class))))
          .because("cli starts namenodes; the rest of the root is the namenode's own wiring");

  @ArchTest
  static final ArchRule rootIsUsedOnlyByTheListedPackages =
      noClasses()
          .that()
          .resideInAPackage(ROOT + "..")
          .and()
          .resideOutsideOfPackages(STILL_USE_THE_ROOT)
          .and()
          .resideOutsideOfPackage(ABOVE_THE_ROOT)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(ROOT)
          .because("the root package only wires the subpackages (docs/development.md)");
}
