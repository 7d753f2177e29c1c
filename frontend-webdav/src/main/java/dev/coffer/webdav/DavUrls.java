package dev.coffer.webdav;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * The URL space of one served tree: everything lives below {@code /SECRET/}, where SECRET is 128
 * random bits from {@link SecureRandom} (base64url). Turns raw (percent-encoded) request paths and
 * {@code Destination}/{@code If} URLs into {@link DavPath}s, refusing encoded slashes, backslashes
 * and NUL before decoding, and malformed UTF-8; turns paths back into hrefs.
 *
 * <p>Not responsible for host checks ({@link HostGuard}) or name validation ({@link DavPath}).
 */
final class DavUrls {
    private static final int SECRET_BYTES = 16;

    private final String secret;

    DavUrls(String secret) {
        this.secret = secret;
    }

    /** A new URL space with a fresh 128-bit secret segment. */
    static DavUrls random() {
        byte[] b = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(b);
        return new DavUrls(Base64.getUrlEncoder().withoutPadding().encodeToString(b));
    }

    String secret() {
        return secret;
    }

    /** The href prefix of the root collection, with its trailing slash. */
    String rootHref() {
        return "/" + secret + "/";
    }

    /** The path a raw request path (no query) names, or empty for anything outside the secret root. */
    Optional<DavPath> fromRawPath(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/")) {
            return Optional.empty();
        }
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || rawPath.indexOf('\\') >= 0) {
            return Optional.empty();
        }
        Optional<String> decoded = percentDecode(rawPath);
        if (decoded.isEmpty()) {
            return Optional.empty();
        }
        String p = decoded.get();
        String prefix = "/" + secret;
        if (!p.equals(prefix) && !p.startsWith(prefix + "/")) {
            return Optional.empty();
        }
        return DavPath.parse(p.substring(prefix.length()));
    }

    /** The path an absolute URL or absolute path (Destination, tagged If lists) names on this server. */
    Optional<DavPath> fromUrl(String url) {
        Optional<String> text = headerText(url);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI u = new URI(text.get().trim());
            String raw = u.getRawPath();
            return raw == null ? Optional.empty() : fromRawPath(raw);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * A header's value as the client meant it: Jetty hands header values over as ISO-8859-1, so a
     * client that sends a raw (unencoded) UTF-8 name in {@code Destination} arrives as one character
     * per byte ("Ã©" for "é"). Such bytes are decoded as UTF-8, strictly: empty if they are not UTF-8.
     */
    static Optional<String> headerText(String value) {
        boolean bytes = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xff) {
                return Optional.of(value); // decoded already
            }
            bytes |= c >= 0x80;
        }
        if (!bytes) {
            return Optional.of(value);
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value.getBytes(StandardCharsets.ISO_8859_1))).toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** The host[:port] an absolute URL names, or null for a path without authority. */
    static String authority(String url) {
        try {
            return new URI(url.trim()).getRawAuthority();
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The href of a path (names in the given form), with a trailing slash for collections. */
    String href(DavPath path, boolean collection, NameForm form) {
        StringBuilder sb = new StringBuilder("/").append(secret);
        for (String s : path.segments()) {
            sb.append('/').append(encodeSegment(form.present(s)));
        }
        if (collection || path.isRoot()) {
            sb.append('/');
        }
        return sb.toString();
    }

    static String encodeSegment(String name) {
        StringBuilder sb = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /** Strict percent-decoding as UTF-8: empty for a broken escape or invalid UTF-8. */
    static Optional<String> percentDecode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return Optional.empty();
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return Optional.empty();
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                out.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
