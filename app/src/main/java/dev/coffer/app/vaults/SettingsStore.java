package dev.coffer.app.vaults;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@code settings.json} in the config folder. Writing goes through a temp file,
 * fsync and an atomic rename, so a crash leaves the old or the new settings, never half of them.
 * A file that cannot be read is moved aside as {@code settings.json.unreadable} (so that nothing the
 * person had is overwritten) and the app starts with empty settings.
 *
 * <p>Not responsible for what the settings mean ({@link VaultService}).
 */
public final class SettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);
    static final String FILE_NAME = "settings.json";

    private final Path file;
    private final ObjectMapper json = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public SettingsStore(Path configFolder) {
        this.file = configFolder.resolve(FILE_NAME);
    }

    public Path file() {
        return file;
    }

    /** The saved settings, or empty ones on a first start or after moving an unreadable file aside. */
    public Settings load() throws IOException {
        if (!Files.exists(file)) {
            return Settings.empty();
        }
        try {
            Settings s = json.readValue(Files.readAllBytes(file), Settings.class);
            return s == null ? Settings.empty() : s;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            Path aside = file.resolveSibling(FILE_NAME + ".unreadable");
            Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            LOG.warn("{} could not be read ({}); it was moved to {} and the app starts with empty settings",
                    file, e.getClass().getSimpleName(), aside);
            return Settings.empty();
        }
    }

    /** Writes {@code settings} atomically (temp file, fsync, rename, fsync of the folder). */
    public void save(Settings settings) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] bytes = json.writeValueAsBytes(settings);
        Path temp = Files.createTempFile(file.getParent(), FILE_NAME, ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        syncFolder(file.getParent());
    }

    /** Makes the rename durable; some file systems refuse to open a folder for sync, which is harmless. */
    private static void syncFolder(Path folder) {
        try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            LOG.debug("could not sync {} ({})", folder, e.getClass().getSimpleName());
        }
    }
}
