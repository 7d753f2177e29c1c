package dev.coffer.core.health;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.FileHeaders;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.names.ConflictRecognition;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.names.NameCipher;
import dev.coffer.core.names.PathMapper;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The format machinery the health check works with, wired from an unlocked vault the way
 * {@code CofferFileSystem} wires it: the name cipher and long-name rule, the path mapper, the
 * storage-folder lister, and the content keys. Owns its AES-SIV key and destroys it on close.
 *
 * <p>Not responsible for deciding anything about the vault (the inspectors do).
 */
final class VaultKeys implements AutoCloseable {
    final Path vaultDir;
    final Path dataDir;
    final AesSiv siv;
    final NameCipher names;
    final LongNames longNames;
    final PathMapper mapper;
    final DirectoryLister lister;
    final ContentKeys content;
    final ConflictRecognition recognition;

    VaultKeys(UnlockedVault unlocked) {
        this.vaultDir = unlocked.vaultDir();
        this.dataDir = vaultDir.resolve("d");
        byte[] sivKey = unlocked.masterKey().derive("coffer/siv", AesSiv.KEY_LENGTH);
        try {
            this.siv = new AesSiv(sivKey);
        } finally {
            Bytes.wipe(sivKey);
        }
        this.names = new NameCipher(siv);
        this.longNames = new LongNames(unlocked.config().shorteningThreshold());
        this.mapper = new PathMapper(dataDir, names, longNames);
        this.lister = new DirectoryLister(names);
        boolean authenticated = unlocked.config().cipherCombo() == CipherCombo.SIV_XTSHMAC;
        this.content = new ContentKeys(new FileHeaders(siv, new SecureRandom()), authenticated);
        this.recognition = new ConflictRecognition(names);
    }

    /** The vault-relative path of {@code p}, with {@code /} separators. */
    String relative(Path p) {
        return vaultDir.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
    }

    @Override
    public void close() {
        siv.destroy();
        names.clearCaches();
        mapper.clearCaches();
    }
}
