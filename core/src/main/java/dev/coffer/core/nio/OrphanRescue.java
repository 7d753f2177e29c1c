package dev.coffer.core.nio;

import dev.coffer.core.content.OpenFile;
import dev.coffer.core.crypto.Bytes;
import dev.coffer.core.names.ConflictNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * Keeps the content of an open file whose ciphertext another program (a sync client) replaced or
 * deleted underneath, at its last close: a new file {@code <N> (Conflict k)} (spec 6's internal
 * conflict form, smallest free k from 1) in the file's folder, or in the root if that folder is gone.
 * Written through this file system's own opener (long names, permissions as for any new file), with
 * the cleartext read through the still-open orphan; not through the provider, whose calls a closing
 * file system refuses (a rescue is part of its close).
 */
final class OrphanRescue implements OpenFiles.Rescue {
    /** More candidates than any folder holds: a store that refuses every name must not loop forever. */
    private static final int MAX_TRIES = 10_000;
    private static final int CHUNK = 128 << 10;
    private static final Set<StandardOpenOption> CREATE_NEW = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    private final CofferFileSystem fs;

    OrphanRescue(CofferFileSystem fs) {
        this.fs = fs;
    }

    @Override
    public void copy(OpenFile orphan) throws IOException {
        CofferPath path = fs.getPath(orphan.cleartextPath());
        CofferPath name = path.getFileName();
        CofferPath folder = path.getParent() == null ? fs.getPath("/") : path.getParent();
        CofferPath root = fs.getPath("/");
        FileChannel copy;
        try {
            copy = createIn(folder, name.toString());
        } catch (IOException inFolder) {
            if (folder.equals(root)) {
                throw inFolder;
            }
            try {
                copy = createIn(root, name.toString()); // the folder was deleted or moved away underneath too
            } catch (IOException inRoot) {
                inRoot.addSuppressed(inFolder);
                throw inRoot;
            }
        }
        try (FileChannel out = copy) {
            transfer(orphan, out);
            out.force(true); // the only copy of what the program wrote
        }
    }

    private FileChannel createIn(CofferPath folder, String name) throws IOException {
        for (int k = 1; k <= MAX_TRIES; k++) {
            try {
                return fs.opener.open((CofferPath) folder.resolve(ConflictNames.internalConflictName(name, k)), CREATE_NEW);
            } catch (FileAlreadyExistsException taken) {
                // the next k
            }
        }
        throw new FileAlreadyExistsException(null, null, "no free conflict name");
    }

    private static void transfer(OpenFile from, FileChannel to) throws IOException {
        byte[] chunk = new byte[CHUNK];
        try {
            long pos = 0;
            while (true) {
                ByteBuffer buf = ByteBuffer.wrap(chunk);
                int n = from.read(buf, pos);
                if (n < 0) {
                    return;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                pos += n;
            }
        } finally {
            Bytes.wipe(chunk); // cleartext
        }
    }
}
