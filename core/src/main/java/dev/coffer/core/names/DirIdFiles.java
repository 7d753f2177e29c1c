package dev.coffer.core.names;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** Reads and validates {@code dir.c9r}: exactly 36 bytes in the lower-case UUID form (spec 4), nothing else. */
public final class DirIdFiles {
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private DirIdFiles() {}

    /** The directory ID in {@code dirFile}, or null if the file is not a valid pointer (damaged entry). */
    public static String read(Path dirFile) throws IOException {
        byte[] buf = new byte[37];
        int n;
        try (InputStream in = Files.newInputStream(dirFile)) {
            n = in.readNBytes(buf, 0, buf.length);
        }
        if (n != 36) {
            return null;
        }
        String id = new String(buf, 0, 36, StandardCharsets.US_ASCII);
        return isValid(id) ? id : null;
    }

    public static boolean isValid(String id) {
        return id.length() == 36 && UUID.matcher(id).matches();
    }
}
