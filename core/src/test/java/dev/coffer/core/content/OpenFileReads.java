package dev.coffer.core.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reads a test's open file back whole or in part, looping until the range or the file ends. */
final class OpenFileReads {
    private OpenFileReads() {}

    static byte[] read(OpenFile f, long from, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(len);
        while (buf.hasRemaining()) {
            if (f.read(buf, from + buf.position()) < 0) {
                break;
            }
        }
        return buf.array();
    }

    static byte[] readAll(OpenFile f) throws IOException {
        return read(f, 0, (int) f.size());
    }

    /** The whole cleartext of the ciphertext file {@code file}, opened afresh for reading. */
    static byte[] readAll(Path file, ContentKeys keys) throws IOException {
        try (OpenFile f = new OpenFile(FileChannel.open(file, StandardOpenOption.READ), keys, "/f", false)) {
            return readAll(f);
        }
    }
}
