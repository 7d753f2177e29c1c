package dev.coffer.core.vault;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The names of the root files (spec 2) and bounded reading of them: a root file is small, so
 * anything over {@link #MAX_ROOT_FILE_SIZE} is refused before it is held in memory.
 *
 * <p>Not responsible for parsing ({@link MasterkeyFile}, {@link VaultConfigJwt}) or writing
 * ({@link dev.coffer.core.util.AtomicFiles}).
 */
final class VaultFiles {
    static final String VAULT_CONFIG = VaultConfigJwt.FILE_NAME;
    static final String MASTERKEY = "masterkey.coffer";
    static final int MAX_ROOT_FILE_SIZE = 64 * 1024;

    private VaultFiles() {}

    /** Reads a root file; a missing, non-regular or oversized file is a {@link VaultFormatException}. */
    static byte[] read(Path vaultDir, String name) throws IOException {
        Path file = vaultDir.resolve(name);
        if (!Files.isRegularFile(file)) {
            if (Files.exists(file)) {
                throw new VaultFormatException(name + ": not a regular file");
            }
            throw new VaultFormatException(name + ": not found" + (name.equals(VAULT_CONFIG)
                    ? " - " + vaultDir + " is not a Coffer vault" : " (vault.coffer names it as the masterkey file)"));
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] content = in.readNBytes(MAX_ROOT_FILE_SIZE + 1);
            if (content.length > MAX_ROOT_FILE_SIZE) {
                throw new VaultFormatException(name + ": larger than " + MAX_ROOT_FILE_SIZE + " bytes - refused");
            }
            return content;
        } catch (NoSuchFileException e) {
            throw new VaultFormatException(name + ": not found");
        }
    }
}
