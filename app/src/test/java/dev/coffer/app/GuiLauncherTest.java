package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which launches go to the GUI and which to the command line. */
class GuiLauncherTest {
    private static final Set<String> SUBCOMMANDS = Set.of("create", "mount", "info");

    @TempDir
    Path tmp;

    @Test
    void noArgumentsAreTheGuiOnADesktopAndTheUsageInATerminal() {
        assertThat(new GuiLauncher(Map.of("DISPLAY", ":0"), SUBCOMMANDS).wantsGui()).isTrue();
        assertThat(new GuiLauncher(Map.of("WAYLAND_DISPLAY", "wayland-0"), SUBCOMMANDS).wantsGui()).isTrue();
        assertThat(new GuiLauncher(Map.of(), SUBCOMMANDS).wantsGui()).isFalse();
    }

    @Test
    void aVaultFolderOrItsVaultCofferIsTheGuiASubcommandIsNot() throws Exception {
        GuiLauncher l = new GuiLauncher(Map.of("DISPLAY", ":0"), SUBCOMMANDS);
        Path vault = Files.createDirectories(tmp.resolve("Taxes"));
        Files.writeString(vault.resolve("vault.coffer"), "x");
        Files.writeString(tmp.resolve("other.txt"), "x");
        assertThat(l.wantsGui(vault.toString())).isTrue();
        assertThat(l.wantsGui(vault.resolve("vault.coffer").toString())).isTrue();
        assertThat(l.wantsGui(tmp.resolve("other.txt").toString())).isFalse();
        assertThat(l.wantsGui(tmp.resolve("missing").toString())).isFalse();
        assertThat(l.wantsGui("--help")).isFalse();
        assertThat(l.wantsGui("--version")).isFalse();
        assertThat(l.wantsGui("info", vault.toString())).isFalse();
        Files.createDirectories(tmp.resolve("create"));
        assertThat(new GuiLauncher(Map.of("DISPLAY", ":0"), SUBCOMMANDS).wantsGui("create")).isFalse(); // a subcommand wins
    }

    @Test
    void aVaultPathWithoutADisplaySaysHowToMountItFromATerminal() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new GuiLauncher(Map.of(), SUBCOMMANDS).launch(new PrintStream(err, true, StandardCharsets.UTF_8),
                tmp.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no graphical display").contains("coffer mount");
    }
}
