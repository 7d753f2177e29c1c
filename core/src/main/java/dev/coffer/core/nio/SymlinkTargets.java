package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.DamagedFileException;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.Entry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/** Reads and encrypts symbolic-link targets: {@code symlink.c9r} holds the target as file content (spec 4). */
final class SymlinkTargets {
    /** Targets are paths: PATH_MAX (4096) bytes, encrypted; anything bigger is damaged. */
    private static final int MAX_STORED = 8192;

    private final ContentKeys keys;

    SymlinkTargets(ContentKeys keys) {
        this.keys = keys;
    }

    String read(Entry link, String cleartextPath) throws IOException {
        byte[] stored;
        try (InputStream in = Files.newInputStream(link.payload())) {
            stored = in.readNBytes(MAX_STORED + 1);
        }
        if (stored.length > MAX_STORED) {
            throw new DamagedFileException(cleartextPath, "symbolic link target too large");
        }
        try {
            return new String(keys.decryptSmall(stored), StandardCharsets.UTF_8);
        } catch (AuthenticationFailedException e) {
            throw new DamagedFileException(cleartextPath, "symbolic link target failed authentication");
        }
    }

    byte[] encrypt(String target) {
        return keys.encryptSmall(target.getBytes(StandardCharsets.UTF_8));
    }
}
