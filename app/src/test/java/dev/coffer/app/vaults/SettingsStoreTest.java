package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** settings.json: round trip, first start, an unreadable file, the config folder. */
class SettingsStoreTest {
    @TempDir
    Path tmp;

    @Test
    void roundTripKeepsEverything() throws Exception {
        SettingsStore store = new SettingsStore(tmp.resolve("coffer"));
        Settings s = new Settings(List.of(new VaultSettings("id-1", "Taxes", "/home/a/Dropbox/Taxes", MountMethod.FUSE,
                "/home/a/Taxes", true, 15, true, false)),
                new Preferences(Theme.DARK, true, MountMethod.WEBDAV, 8080, 10, "de", true));
        store.save(s);
        assertThat(store.load()).isEqualTo(s);
        assertThat(Files.readString(store.file())).contains("\"name\" : \"Taxes\"").contains("\"theme\" : \"DARK\"");
        try (var files = Files.list(tmp.resolve("coffer"))) {
            assertThat(files).containsExactly(store.file()); // no temp file left behind
        }
    }

    @Test
    void aFirstStartHasNoVaultsAndDefaultPreferences() throws Exception {
        assertThat(new SettingsStore(tmp).load()).isEqualTo(Settings.empty());
    }

    @Test
    void anUnreadableFileIsMovedAsideNotOverwritten() throws Exception {
        Files.writeString(tmp.resolve("settings.json"), "{ this is not json");
        assertThat(new SettingsStore(tmp).load()).isEqualTo(Settings.empty());
        assertThat(tmp.resolve("settings.json.unreadable")).hasContent("{ this is not json");
    }

    @Test
    void unknownFieldsFromANewerVersionAreIgnored() throws Exception {
        Files.writeString(tmp.resolve("settings.json"), "{\"vaults\":[],\"preferences\":{\"theme\":\"LIGHT\",\"future\":1}}");
        assertThat(new SettingsStore(tmp).load().preferences().theme()).isEqualTo(Theme.LIGHT);
    }

    @Test
    void theConfigFolderFollowsXdg() {
        Path home = Path.of("/home/a");
        assertThat(ConfigFolder.of(Map.of("XDG_CONFIG_HOME", "/cfg"), home)).isEqualTo(Path.of("/cfg/coffer"));
        assertThat(ConfigFolder.of(Map.of(), home)).isEqualTo(Path.of("/home/a/.config/coffer"));
        assertThat(ConfigFolder.of(Map.of("XDG_CONFIG_HOME", "relative"), home)).isEqualTo(Path.of("/home/a/.config/coffer"));
    }
}
