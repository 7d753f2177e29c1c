package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small OS helpers: sync folders, xdg-open's command line, the desktop theme, the tray's absence. */
class OsTest {
    @TempDir
    Path home;

    @Test
    void cloudSyncFoldersAreFoundWhereTheirClientsPutThem() throws Exception {
        Files.createDirectories(home.resolve("Nextcloud"));
        Files.createDirectories(home.resolve("Sync"));
        Files.createDirectories(home.resolve("Dropbox (Acme)"));
        Files.createDirectories(home.resolve("Library/Mobile Documents/com~apple~CloudDocs"));
        Files.writeString(home.resolve("Dropbox"), "a file, not the folder");
        assertThat(CloudSyncFolders.find(home)).extracting(CloudSyncFolders.Found::service)
                .containsExactly("Nextcloud", "Syncthing", "iCloud Drive", "Dropbox");
    }

    @Test
    void xdgOpenGetsAPathForFoldersAndTheUrlOtherwise() {
        assertThat(XdgOpen.command(Path.of("/tmp/a b").toUri())).containsExactly("xdg-open", "/tmp/a b");
        assertThat(XdgOpen.command(URI.create("http://127.0.0.1:42427/Taxes/")))
                .isEqualTo(List.of("xdg-open", "http://127.0.0.1:42427/Taxes/"));
    }

    @Test
    void gtkThemeDecidesTheSystemTheme() {
        assertThat(DesktopTheme.prefersDark(Map.of("GTK_THEME", "Adwaita:dark"))).isTrue();
        assertThat(DesktopTheme.prefersDark(Map.of("GTK_THEME", "Adwaita"))).isFalse();
    }

    @Test
    void withoutATrayInstallSaysSoInsteadOfFailing() {
        // the tests run headless (java.awt.headless=true): the "no tray" path, which the app handles by keeping its window
        System.setProperty("java.awt.headless", "true");
        assertThat(Tray.supported()).isFalse();
        assertThat(Tray.install("Coffer", new Tray.Actions("Show", () -> { }, "Lock all", () -> { }, "Quit", () -> { })))
                .isEmpty();
    }

    @Test
    void aMissingKeyringIsExplainedWithWhatToInstall() {
        String reason = SystemKeyring.reason(new com.github.javakeyring.BackendNotSupportedException(
                "No available keyring backend found"));
        assertThat(reason).startsWith("No system keyring is available (No available keyring backend found)")
                .contains("gnome-keyring");
        PassphraseStore none = PassphraseStore.unavailable(reason);
        char[] p = "secret passphrase".toCharArray();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> none.save("id", p)).hasMessage(reason);
        assertThat(p).containsOnly('\0');
    }
}
