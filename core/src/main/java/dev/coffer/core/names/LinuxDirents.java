package dev.coffer.core.names;

import dev.coffer.core.util.LinuxLibC;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a folder's names together with their types, as Linux's {@code getdents64} gives them, so
 * that listing a storage folder needs no {@code lstat} per entry (Java's directory stream gives
 * names only). Answers null whenever it cannot answer exactly as the JDK would, and the caller
 * then lists through the JDK: not Linux, not the default file system, a path the platform's charset
 * cannot encode exactly, a name that is not plain ASCII (ciphertext names always are; the JDK
 * decodes others with the platform's charset), any failure to open or read (the JDK then reports
 * it with its usual exception), or libc without {@code getdents64} (glibc before 2.30).
 */
final class LinuxDirents {
    private static final Logger LOG = LoggerFactory.getLogger(LinuxDirents.class);
    private static final int BUFFER = 32 * 1024;
    // linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[] (NUL-terminated).
    private static final int RECLEN = 16;
    private static final int TYPE = 18;
    private static final int NAME = 19;
    private static final byte DT_DIR = 4;
    private static final byte DT_REG = 8;
    private static final byte DT_UNKNOWN = 0;

    /** The libc functions used; {@code opendir}/{@code dirfd} spare us each architecture's open flags. */
    public interface LibC {
        Pointer opendir(@In byte[] path);

        int dirfd(Pointer dir);

        long getdents64(int fd, @Out ByteBuffer buffer, long length);

        int closedir(Pointer dir);
    }

    private static final LibC LIBC = LinuxLibC.load(LibC.class, LOG, "Listing folders through the JDK (no getdents64 in libc)");
    private static final ThreadLocal<ByteBuffer> BUFFERS =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.nativeOrder()));

    private LinuxDirents() {}

    /** Whether folders on the default file system are read here (Linux with a recent libc). */
    static boolean available() {
        return LIBC != null;
    }

    /** The folder's items (without "." and ".."), in the system's order; or null: list it through the JDK. */
    static List<StorageItem> read(Path folder) {
        if (LIBC == null || folder.getFileSystem() != FileSystems.getDefault()) {
            return null;
        }
        byte[] path = LinuxLibC.nativePath(folder.toString());
        if (path == null) {
            return null;
        }
        Pointer dir = LIBC.opendir(path);
        if (dir == null) {
            return null;
        }
        try {
            return items(LIBC.dirfd(dir));
        } finally {
            LIBC.closedir(dir);
        }
    }

    private static List<StorageItem> items(int fd) {
        ByteBuffer buffer = BUFFERS.get();
        List<StorageItem> items = new ArrayList<>();
        byte[] name = new byte[256];
        while (true) {
            long n = LIBC.getdents64(fd, buffer, BUFFER);
            if (n < 0) {
                return null;
            }
            if (n == 0) {
                return items;
            }
            for (int pos = 0; pos < n; pos += buffer.getShort(pos + RECLEN) & 0xffff) {
                int length = 0;
                for (byte b = buffer.get(pos + NAME); b != 0; b = buffer.get(pos + NAME + length)) {
                    if (b < 0 || length == name.length) {
                        return null; // not ASCII (or longer than a name can be): the JDK decodes it
                    }
                    name[length++] = b;
                }
                if (!(length == 1 && name[0] == '.') && !(length == 2 && name[0] == '.' && name[1] == '.')) {
                    items.add(new StorageItem(new String(name, 0, length, StandardCharsets.US_ASCII),
                            kind(buffer.get(pos + TYPE))));
                }
            }
        }
    }

    private static StorageItem.Kind kind(byte type) {
        return switch (type) {
            case DT_REG -> StorageItem.Kind.FILE;
            case DT_DIR -> StorageItem.Kind.FOLDER;
            case DT_UNKNOWN -> StorageItem.Kind.UNKNOWN;
            default -> StorageItem.Kind.OTHER;
        };
    }
}
