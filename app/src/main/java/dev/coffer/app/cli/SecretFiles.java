package dev.coffer.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a secret (passphrase or recovery words) from a UTF-8 file into a {@code char[]}, wiping
 * every intermediate buffer. The file must exist and be at most {@value #MAX_BYTES} bytes.
 *
 * <p>Not responsible for where the file name comes from or what the secret is checked against.
 */
final class SecretFiles {
    static final int MAX_BYTES = 64 * 1024;

    private SecretFiles() {}

    /** The first line, without its line break (LF, CR or CRLF) and without a leading byte order mark. */
    static char[] firstLine(Path file) throws IOException, CliException {
        char[] all = whole(file);
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

    /** The whole file as characters. */
    static char[] whole(Path file) throws IOException, CliException {
        if (!Files.isRegularFile(file)) {
            throw CliException.usage("secret file not found (or not a file): " + file);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        CharBuffer chars = null;
        try {
            if (bytes.length > MAX_BYTES) {
                throw CliException.usage("secret file larger than " + MAX_BYTES + " bytes: " + file);
            }
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
}
