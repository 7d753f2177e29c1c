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
 *
 * <p>A copy that fails part-way (full disk, a unit that fails authentication) keeps what it holds,
 * the only remaining part of the program's data, and says where ({@link IncompleteCopyException});
 * an empty one of a non-empty orphan is removed, as it would look like a complete copy of an empty file.
 */
final class OrphanRescue implements OpenFiles.Rescue {
    /** More candidates than any folder holds: a store that refuses every name must not loop forever. */
    private static final int MAX_TRIES = 10_000;
    private static final int CHUNK = 128 << 10;
    /** The format's unit (a chunk is a whole number of them): the smallest read that can fail alone. */
    private static final int UNIT = 4096;
    private static final Set<java.nio.file.OpenOption> CREATE_NEW = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    private final CofferFileSystem fs;

    OrphanRescue(CofferFileSystem fs) {
        this.fs = fs;
    }

    /**
     * Returns the cleartext path of the copy. A copy that failed after it was made but kept bytes
     * throws {@link IncompleteCopyException} (with the failure as its cause), naming where they are.
     */
    @Override
    public String copy(OpenFile orphan) throws IOException {
        CofferPath path = fs.getPath(orphan.cleartextPath());
        CofferPath name = path.getFileName();
        CofferPath folder = path.getParent() == null ? fs.getPath("/") : path.getParent();
        CofferPath root = fs.getPath("/");
        Created copy;
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
        long[] copied = {0};
        try {
            try (FileChannel out = copy.channel()) {
                transfer(orphan, out, copied);
                out.force(true); // the only copy of what the program wrote
            }
        } catch (IOException | RuntimeException e) {
            if (copied[0] == 0 && orphan.size() > 0) {
                removeEmpty(copy.path(), e);
                throw e;
            }
            throw new IncompleteCopyException(copy.path().toString(), e);
        }
        return copy.path().toString();
    }

    /** A new conflict file and the channel writing it. */
    private record Created(CofferPath path, FileChannel channel) {
    }

    /**
     * Removes an empty failed copy (closed already). Not through the provider, which a closing file
     * system refuses, nor under its structure lock, which its close holds while it waits for rescues.
     */
    private void removeEmpty(CofferPath copy, Exception failure) {
        try {
            fs.writer.delete(fs.resolver.locate(copy));
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private Created createIn(CofferPath folder, String name) throws IOException {
        for (int k = 1; k <= MAX_TRIES; k++) {
            CofferPath candidate = (CofferPath) folder.resolve(ConflictNames.internalConflictName(name, k));
            try {
                return new Created(candidate, fs.opener.open(candidate, CREATE_NEW));
            } catch (FileAlreadyExistsException taken) {
                // the next k
            }
        }
        throw new FileAlreadyExistsException(null, null, "no free conflict name");
    }

    /**
     * After a chunk's read failed (a damaged unit): copies its units one by one up to the first that
     * fails to read, so the readable bytes before the damage are kept too.
     */
    private static void copyReadableUnits(OpenFile from, FileChannel to, long chunkStart, long[] copied, byte[] scratch)
            throws IOException {
        for (long at = chunkStart; at < chunkStart + CHUNK; at += UNIT) {
            ByteBuffer unit = ByteBuffer.wrap(scratch, 0, UNIT);
            int n;
            try {
                n = from.read(unit, at);
            } catch (IOException damaged) {
                return;
            }
            if (n <= 0) {
                return;
            }
            unit.flip();
            while (unit.hasRemaining()) {
                copied[0] += to.write(unit, at + unit.position());
            }
        }
    }

    /** Copies {@code from} to {@code to}, counting in {@code copied} the bytes written so far. */
    private static void transfer(OpenFile from, FileChannel to, long[] copied) throws IOException {
        byte[] chunk = new byte[CHUNK];
        try {
            long pos = 0;
            while (true) {
                ByteBuffer buf = ByteBuffer.wrap(chunk);
                int n;
                try {
                    n = from.read(buf, pos);
                } catch (IOException damaged) {
                    copyReadableUnits(from, to, pos, copied, chunk); // what precedes the damage in this chunk
                    throw damaged;
                }
                if (n < 0) {
                    return;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    copied[0] += to.write(buf);
                }
                pos += n;
            }
        } finally {
            Bytes.wipe(chunk); // cleartext
        }
    }
}
