package dev.coffer.core.nio;

import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;

/** What the tests of conflict copies at the last close (orphaned open files) share. */
final class OrphanFixtures {
    private OrphanFixtures() {
    }

    /** The open file's read-write lock: tests hold it to stall a copy or a close at a chosen point. */
    static ReentrantReadWriteLock lockOf(OpenFile file) throws ReflectiveOperationException {
        java.lang.reflect.Field f = OpenFile.class.getDeclaredField("rwLock");
        f.setAccessible(true);
        return (ReentrantReadWriteLock) f.get(file);
    }

    /** Another device's version of a file: a ciphertext file in {@code outside}, made from a file of its own. */
    static Path otherDevicesVersion(CofferFileSystem fs, Path outside, String content) throws IOException {
        Path other = fs.getPath("/other device's file");
        Files.writeString(other, content);
        Path ciphertext = Files.copy(payload(fs, other.toString()), outside.resolve("synced-" + System.nanoTime() + ".c9r"));
        Files.delete(other);
        return ciphertext;
    }

    /** The ciphertext payload of a cleartext path. */
    static Path payload(CofferFileSystem fs, String cleartext) throws IOException {
        return fs.resolver.locate(fs.getPath(cleartext)).entry().payload();
    }

    /** The names in a cleartext folder, sorted. */
    static List<String> names(CofferFileSystem fs, String folder) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> in = Files.list(fs.getPath(folder))) {
            in.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /** Writes all of {@code s} (UTF-8) at the channel's position. */
    static void write(FileChannel ch, String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** An open file whose ciphertext a sync client deleted, held by a reader, and its lock. */
    record Orphan(FileChannel reader, ReentrantReadWriteLock lock) {
    }

    /**
     * {@code cleartext} written with {@code content} through a writer now closed, a reader still open
     * on it, then its ciphertext deleted underneath (as a sync client would): the reader's close is
     * the orphan's last, which keeps a conflict copy.
     */
    static Orphan orphanHeldByAReader(CofferFileSystem fs, String cleartext, String content)
            throws IOException, ReflectiveOperationException {
        Path file = fs.getPath(cleartext);
        Files.writeString(file, "");
        FileChannel reader = FileChannel.open(file, java.nio.file.StandardOpenOption.READ);
        try (FileChannel writer = FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            write(writer, content);
        }
        ReentrantReadWriteLock lock = lockOf(fs.openFiles.get(payload(fs, cleartext)));
        Files.delete(payload(fs, cleartext));
        return new Orphan(reader, lock);
    }

    /** Each file of a cleartext folder as {@code name=content}, sorted by name. */
    static List<String> contentsByName(CofferFileSystem fs, String folder) throws IOException {
        List<String> contents = new ArrayList<>();
        for (String n : names(fs, folder)) {
            contents.add(n + "=" + Files.readString(fs.getPath(folder).resolve(n)));
        }
        return contents;
    }
}
