package dev.coffer.core.names;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.text.Normalizer;

/** Rules for cleartext names (spec 4): NFC, at most 255 UTF-8 bytes, and never empty, {@code .}, {@code ..}, {@code /} or NUL. */
public final class Names {
    public static final int MAX_BYTES = 255;

    private Names() {}

    /** NFC form of {@code name}. */
    public static String nfc(String name) {
        return Normalizer.isNormalized(name, Normalizer.Form.NFC) ? name : Normalizer.normalize(name, Normalizer.Form.NFC);
    }

    /** True for names a reader must skip (and a writer refuse): empty, {@code .}, {@code ..}, containing / or NUL. */
    public static boolean isUnsafe(String name) {
        return name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0;
    }

    /** The NFC name to store; refuses unsafe names and names over 255 bytes with a clear message. */
    public static String checkWritable(String name, String cleartextPath) throws FileSystemException {
        String n = nfc(name);
        if (isUnsafe(n)) {
            throw new FileSystemException(cleartextPath, null, "invalid name");
        }
        if (n.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new FileSystemException(cleartextPath, null, "name too long");
        }
        return n;
    }

    /** Strict UTF-8 decoding: malformed input from a foreign writer is refused, not replaced. */
    static String decodeUtf8(byte[] bytes) throws dev.coffer.core.crypto.AuthenticationFailedException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new dev.coffer.core.crypto.AuthenticationFailedException("name is not valid UTF-8");
        }
    }
}
