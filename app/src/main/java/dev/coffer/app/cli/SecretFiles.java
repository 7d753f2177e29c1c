package dev.coffer.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * Reads a secret (passphrase or recovery words) from a UTF-8 file into a {@code char[]}, wiping
 * every intermediate buffer. The file must exist and be a regular file of at most
 * {@value #MAX_BYTES} bytes, or a named pipe (a FIFO, or {@code /dev/fd/63} from bash's
 * {@code <(...)}), which is read once: for a first line only up to its line break, since the
 * writer may keep its end open. A regular file that group or others may access is read, with a
 * warning (as ssh warns of a private key file others can read); a pipe passes and is gone.
 *
 * <p>Not responsible for where the file name comes from or what the secret is checked against.
 */
final class SecretFiles {
    static final int MAX_BYTES = 64 * 1024;

    private SecretFiles() {}

    /** The first line, without its line break (LF, CR or CRLF) and without a leading byte order mark. */
    static char[] firstLine(Path file, PrintStream warnings) throws IOException, CliException {
        char[] all = decode(read(file, true, warnings), file);
        try {
            int start = all.length > 0 && all[0] == '\uFEFF' ? 1 : 0;
            int end = start;
            while (end < all.length && all[end] != '\n' && all[end] != '\r') {
                end++;
            }
            return Arrays.copyOfRange(all, start, end);
        } finally {
            Arrays.fill(all, '\0');
        }
    }

    /** The whole file as characters, without a leading byte order mark (a pipe: all it carries until its writer closes it). */
    static char[] whole(Path file, PrintStream warnings) throws IOException, CliException {
        char[] all = decode(read(file, false, warnings), file);
        if (all.length == 0 || all[0] != '\uFEFF') {
            return all;
        }
        try {
            return Arrays.copyOfRange(all, 1, all.length); // Notepad's: it would glue itself to the first word
        } finally {
            Arrays.fill(all, '\0');
        }
    }

    /** The file's bytes; the caller wipes them. */
    private static byte[] read(Path file, boolean firstLineOfPipe, PrintStream warnings) throws IOException, CliException {
        boolean pipe = SecretFileKind.of(file) == SecretFileKind.PIPE;
        if (!pipe) {
            warnIfOthersMayAccess(file, warnings);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = upTo(in, pipe && firstLineOfPipe);
            if (bytes.length > MAX_BYTES) {
                Arrays.fill(bytes, (byte) 0);
                throw CliException.usage("secret file larger than " + MAX_BYTES + " bytes"
                        + (pipe ? " without a line break" : "") + ": " + file);
            }
            return bytes;
        }
    }

    private static void warnIfOthersMayAccess(Path file, PrintStream warnings) throws IOException {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(file, "unix:mode") & 0777;
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return; // no POSIX modes here (Windows)
        }
        if ((mode & 0077) != 0) {
            warnings.println("coffer: warning: the secret file " + file + " is accessible by group or others (mode "
                    + String.format("%04o", mode) + "); make it private: chmod 600 " + file);
        }
    }

    /**
     * All bytes until the end, or with {@code firstLine} those before the first LF (which never
     * occurs inside a UTF-8 sequence), at most {@value #MAX_BYTES} + 1, in one buffer that is wiped
     * ({@code InputStream.readNBytes} drops copies it never wipes). Reads as the bytes come, never
     * waiting for more than one read returns once a line feed has arrived.
     */
    static byte[] upTo(InputStream in, boolean firstLine) throws IOException {
        byte[] buffer = new byte[MAX_BYTES + 1];
        try {
            int length = 0;
            while (length < buffer.length) {
                int n = in.read(buffer, length, buffer.length - length);
                if (n < 0) {
                    break;
                }
                for (int i = length; firstLine && i < length + n; i++) {
                    if (buffer[i] == '\n') {
                        return Arrays.copyOf(buffer, i);
                    }
                }
                length += n;
            }
            return Arrays.copyOf(buffer, length);
        } finally {
            Arrays.fill(buffer, (byte) 0);
        }
    }

    /** UTF-8 {@code bytes} as characters; wipes {@code bytes} and the decoder's buffer. */
    private static char[] decode(byte[] bytes, Path file) throws CliException {
        CharBuffer chars = null;
        try {
            chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return Arrays.copyOfRange(chars.array(), chars.arrayOffset() + chars.position(),
                    chars.arrayOffset() + chars.limit());
        } catch (CharacterCodingException e) {
            throw CliException.usage("secret file is not UTF-8 text: " + file);
        } finally {
            Arrays.fill(bytes, (byte) 0);
            if (chars != null) {
                Arrays.fill(chars.array(), '\0');
            }
        }
    }

    /** The kinds of file a secret may be read from. */
    private enum SecretFileKind {
        REGULAR, PIPE;

        private static final int S_IFMT = 0170000;
        private static final int S_IFIFO = 0010000;

        static SecretFileKind of(Path file) throws IOException, CliException {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(file, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                throw CliException.usage("secret file not found: " + file);
            }
            if (attributes.isRegularFile()) {
                return REGULAR;
            }
            if (attributes.isOther() && isFifo(file)) {
                return PIPE;
            }
            // A folder, a terminal or another device: reading one would fail, hang or never end.
            throw CliException.usage("secret file is not a file or a pipe: " + file);
        }

        private static boolean isFifo(Path file) throws IOException {
            try {
                return ((Integer) Files.getAttribute(file, "unix:mode") & S_IFMT) == S_IFIFO;
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                return false; // no unix attributes (Windows): no pipe to name by a path either
            }
        }
    }
}
