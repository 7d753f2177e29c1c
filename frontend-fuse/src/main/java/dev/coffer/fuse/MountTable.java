package dev.coffer.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kernel's mount table as this process sees it ({@code /proc/self/mountinfo}): is a folder a
 * mount point, and of which file system type. The only reliable answer after a lazy unmount, which
 * returns before the mount is gone, and for a stale mount, which cannot even be stat'ed.
 *
 * <p>Not responsible for mounting or unmounting.
 */
public final class MountTable {
    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    /** One mount: where, which file system type ({@code fuse.coffer}), and its device ({@code 0:53}). */
    public record Entry(Path mountPoint, String type, String device) {}

    private MountTable() {}

    /** The mount at exactly {@code folder} (the last one if mounts are stacked), if any. */
    public static Optional<Entry> at(Path folder) throws IOException {
        Path target = folder.toAbsolutePath().normalize();
        Entry found = null;
        for (Entry e : entries()) {
            if (e.mountPoint().equals(target)) {
                found = e;
            }
        }
        return Optional.ofNullable(found);
    }

    /** True if something is mounted at {@code folder}. */
    public static boolean isMounted(Path folder) throws IOException {
        return at(folder).isPresent();
    }

    static List<Entry> entries() throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (String line : Files.readAllLines(MOUNTINFO, StandardCharsets.UTF_8)) {
            parse(line).ifPresent(entries::add);
        }
        return entries;
    }

    /** One mountinfo line: "36 35 98:0 /root /mnt opts [optional...] - type source superopts". */
    static Optional<Entry> parse(String line) {
        String[] f = line.split(" ");
        int dash = -1;
        for (int i = 6; i < f.length; i++) {
            if (f[i].equals("-")) {
                dash = i;
                break;
            }
        }
        if (f.length < 5 || dash < 0 || dash + 1 >= f.length) {
            return Optional.empty();
        }
        return Optional.of(new Entry(Path.of(unescape(f[4])), f[dash + 1], f[2]));
    }

    /** mountinfo writes space, tab, newline and backslash as octal escapes ({@code \040}). */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[in.length];
        int n = 0;
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '\\' && i + 3 < in.length && isOctal(in[i + 1]) && isOctal(in[i + 2]) && isOctal(in[i + 3])) {
                out[n++] = (byte) ((in[i + 1] - '0') * 64 + (in[i + 2] - '0') * 8 + (in[i + 3] - '0'));
                i += 3;
            } else {
                out[n++] = in[i];
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private static boolean isOctal(byte b) {
        return b >= '0' && b <= '7';
    }
}
