package dev.coffer.core.health;

import dev.coffer.core.names.CiphertextDirectory;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.nio.CofferFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Repairs an interrupted write ({@link InterruptedWrites}) without losing a readable byte: first
 * keeps the ciphertext file as it is ({@link RepairBackups}), then
 * <ul>
 *   <li>for an old end, cuts the ciphertext after the old final unit: the file as it was before the
 *       interrupted write, every unit authentic as it stands, nothing re-encrypted;</li>
 *   <li>for a torn end, gives the ciphertext the length of the kept units and a 16-byte final unit
 *       (cutting or zero-filling bytes that authenticate nowhere anyway, so that the vault file
 *       system can open it), then truncates the file through the vault file system
 *       ({@link FileChannel#truncate}) to the end of the kept units: the format code re-tags the
 *       new final unit as it does for any truncation.</li>
 * </ul>
 * Before changing anything it checks the file again: a file that verifies now is left alone (repaired
 * already: running it twice is harmless), and one whose readable part changed since the check is
 * refused. A torn end is only truncated when its cleartext path leads to this very ciphertext file.
 * Afterwards the file must verify, or the repair is reported as failed (the copy stays).
 *
 * <p>Not responsible for finding interrupted writes, nor for any other file.
 */
final class InterruptedWriteRepair {
    /** Opens the vault as a writable file system; the caller of {@link #close} closes it. */
    @FunctionalInterface
    interface FileSystemOpener {
        CofferFileSystem open() throws IOException;
    }

    private final VaultKeys keys;
    private final ContentVerifier verifier;
    private final RepairBackups backups;
    private final FileSystemOpener opener;
    private CofferFileSystem fs;

    InterruptedWriteRepair(VaultKeys keys, FileSystemOpener opener) {
        this.keys = keys;
        this.verifier = new ContentVerifier(keys.content);
        this.backups = new RepairBackups(keys);
        this.opener = opener;
    }

    void recover(String cleartextPath, Path payload, InterruptedWrites.Recovery planned) throws IOException {
        ContentVerifier.Problem now = verifier.verify(payload);
        if (now == null) {
            return; // repaired already
        }
        InterruptedWrites.Recovery recovery = now.recovery();
        if (recovery == null || recovery.readable() != planned.readable() || recovery.oldEnd() != planned.oldEnd()) {
            throw new IOException(keys.relative(payload) + " changed since the check; left as it is");
        }
        if (!recovery.oldEnd()) {
            requireReachable(cleartextPath, payload);
        }
        String backup = backups.keep(payload);
        try (FileChannel ch = FileChannel.open(payload, StandardOpenOption.WRITE)) {
            if (ch.size() != recovery.ciphertextLength()) {
                throw new IOException(keys.relative(payload) + " changed during the repair; left as it is (a copy is in " + backup + ")");
            }
            setLength(ch, recovery.oldEnd() ? recovery.cutCiphertextTo() : recovery.preparedLength());
            ch.force(true);
        }
        if (!recovery.oldEnd()) {
            try (FileChannel ch = FileChannel.open(fileSystem().getPath(cleartextPath), StandardOpenOption.WRITE)) {
                ch.truncate(recovery.truncateCleartextTo());
                ch.force(true);
            }
        }
        if (verifier.verify(payload) != null) {
            throw new IOException(keys.relative(payload) + " still fails to verify after the repair; the original is in " + backup);
        }
    }

    /** Cuts, or zero-fills up to, {@code length}. */
    private static void setLength(FileChannel ch, long length) throws IOException {
        if (ch.size() > length) {
            ch.truncate(length);
            return;
        }
        ByteBuffer zeros = ByteBuffer.allocate((int) (length - ch.size()));
        long pos = ch.size();
        while (zeros.hasRemaining()) {
            pos += ch.write(zeros, pos);
        }
    }

    /** Refuses unless the vault file system reaches {@code payload} at {@code cleartextPath} (not so for a conflict copy). */
    private void requireReachable(String cleartextPath, Path payload) throws IOException {
        List<String> components = new ArrayList<>(List.of(cleartextPath.substring(1).split("/", -1)));
        String name = components.remove(components.size() - 1);
        Path reached;
        try {
            CiphertextDirectory dir = keys.mapper.directory(components);
            reached = keys.mapper.slot(dir, name).payload(EntryType.FILE);
        } catch (IOException | RuntimeException e) {
            reached = null;
        }
        if (reached == null || !reached.toAbsolutePath().normalize().equals(payload.toAbsolutePath().normalize())) {
            throw new IOException(keys.relative(payload) + " cannot be reached through the vault under its name (a conflict copy, an"
                    + " unusable name, or a folder not adopted); left as it is");
        }
    }

    private CofferFileSystem fileSystem() throws IOException {
        if (fs == null) {
            if (opener == null) {
                throw new IllegalStateException("repairs are only planned here");
            }
            fs = opener.open();
        }
        return fs;
    }

    /** Closes the file system, if one was opened. */
    void close() throws IOException {
        if (fs != null) {
            fs.close();
            fs = null;
        }
    }
}
