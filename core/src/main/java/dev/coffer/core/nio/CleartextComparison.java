package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.OpenFile;
import dev.coffer.core.names.ConflictResolver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Compares two encrypted payloads by cleartext (spec 6, rule 2: ciphertexts always differ), reading
 * both in 128 KiB pieces. The one place where a listing reads file contents.
 */
public final class CleartextComparison implements ConflictResolver.CleartextComparer {
    private static final int CHUNK = 128 * 1024;

    private final ContentKeys keys;

    public CleartextComparison(ContentKeys keys) {
        this.keys = keys;
    }

    @Override
    public boolean sameCleartext(Path a, Path b) throws IOException {
        OpenFile fa = open(a);
        try {
            OpenFile fb = open(b);
            try {
                return sameContent(fa, fb);
            } finally {
                fb.close();
            }
        } finally {
            fa.close();
        }
    }

    private OpenFile open(Path p) throws IOException {
        FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
        try {
            return new OpenFile(ch, keys, "(conflict copy)", false);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static boolean sameContent(OpenFile a, OpenFile b) throws IOException {
        if (a.size() != b.size()) {
            return false;
        }
        ByteBuffer ba = ByteBuffer.allocate(CHUNK);
        ByteBuffer bb = ByteBuffer.allocate(CHUNK);
        for (long pos = 0; pos < a.size(); pos += CHUNK) {
            ba.clear();
            bb.clear();
            int na = a.read(ba, pos);
            int nb = b.read(bb, pos);
            if (na != nb || !Arrays.equals(ba.array(), 0, na, bb.array(), 0, nb)) {
                return false;
            }
        }
        return true;
    }
}
