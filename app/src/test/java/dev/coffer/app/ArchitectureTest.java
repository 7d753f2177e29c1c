package dev.coffer.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The app's layering: the GUI uses only the core's public API (vault, nio) and nothing of the
 * frontends; ViewModels stay free of the JavaFX toolkit (only javafx.beans and javafx.collections),
 * so they are tested without it; the vault layer knows nothing of the UI.
 */
class ArchitectureTest {
    private static JavaClasses app;

    @BeforeAll
    static void importApp() {
        app = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.coffer.app");
    }

    /**
     * The rules below fail by throwing from ArchUnit's {@code check}; an import that found no classes
     * would let every one of them pass, so this proves the layers they speak of were imported.
     */
    @Test
    void theRulesSeeTheAppsLayers() {
        assertThat(app.containPackage("dev.coffer.app.ui")).isTrue();
        assertThat(app.containPackage("dev.coffer.app.vaults")).isTrue();
        assertThat(app.containPackage("dev.coffer.app.cli")).isTrue();
        assertThat(app.stream().filter(c -> c.getSimpleName().endsWith("ViewModel"))).isNotEmpty();
    }

    @Test
    void theGuiUsesOnlyTheCoresPublicApi() {
        noClasses().that().resideInAPackage("dev.coffer.app.ui..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.coffer.core.crypto..", "dev.coffer.core.content..",
                        "dev.coffer.core.names..", "dev.coffer.core.util..", "dev.coffer.core.health..")
                .because("the GUI talks to vaults through core's public API (vault, nio) and the app's VaultService")
                .check(app);
    }

    @Test
    void theGuiDoesNotMountByItself() {
        noClasses().that().resideInAPackage("dev.coffer.app.ui..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.coffer.fuse..", "dev.coffer.webdav..")
                .because("mounting goes through dev.coffer.app.vaults' Mounter abstraction")
                .check(app);
    }

    @Test
    void viewModelsAreToolkitFree() {
        noClasses().that().resideInAPackage("dev.coffer.app.ui").and().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..",
                        "javafx.application..", "javafx.concurrent..")
                .because("ViewModels are unit-tested without starting JavaFX")
                .check(app);
    }

    @Test
    void theVaultLayerKnowsNothingOfTheUi() {
        noClasses().that().resideInAPackage("dev.coffer.app.vaults..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.coffer.app.ui..", "dev.coffer.app.cli..", "javafx..")
                .check(app);
    }

    @Test
    void theCommandLineDoesNotNeedTheGui() {
        noClasses().that().resideInAPackage("dev.coffer.app.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.coffer.app.ui..", "javafx..")
                .check(app);
    }
}
