package dev.coffer.webdav;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * The second credential of a server that Coffer mounts itself: HTTP Basic with user
 * {@value #USER} and a password of {@value #PASSWORD_BYTES} random bytes from {@link SecureRandom}
 * (base64url, 192 bits), made per server. The secret URL segment of such a mount is readable by
 * other local users (in {@code /proc/mounts} and in the command lines of {@code gio}), the password
 * is not: it is kept as bytes only, handed to the OS client on its standard input
 * ({@link #clientInput}), compared in constant time, and wiped when the server stops.
 *
 * <p>Not responsible for answering a refused request ({@link DavServlet}) or for running the
 * clients ({@link GioMount}, {@link Davfs2Mount}).
 */
final class DavCredential {
    static final String USER = "coffer";
    static final int PASSWORD_BYTES = 24;
    private static final String BASIC = "basic ";

    /** {@code USER:PASSWORD} in UTF-8 (ASCII), as a Basic header carries it once decoded. */
    private final byte[] userColonPassword;
    private boolean wiped;

    private DavCredential(byte[] userColonPassword) {
        this.userColonPassword = userColonPassword;
    }

    /** A fresh credential. */
    static DavCredential random() {
        byte[] raw = new byte[PASSWORD_BYTES];
        new SecureRandom().nextBytes(raw);
        byte[] password = Base64.getUrlEncoder().withoutPadding().encode(raw);
        Arrays.fill(raw, (byte) 0);
        byte[] user = (USER + ":").getBytes(StandardCharsets.US_ASCII);
        byte[] both = Arrays.copyOf(user, user.length + password.length);
        System.arraycopy(password, 0, both, user.length, password.length);
        Arrays.fill(password, (byte) 0);
        return new DavCredential(both);
    }

    /**
     * Whether an {@code Authorization} header carries this credential: the {@code Basic} scheme (any
     * case), a well-formed base64 token, and the decoded bytes equal to {@code USER:PASSWORD},
     * compared in constant time. False for anything else, and after {@link #wipe}.
     */
    synchronized boolean accepts(String authorization) {
        if (wiped || authorization == null || authorization.length() <= BASIC.length()
                || !authorization.substring(0, BASIC.length()).toLowerCase(Locale.ROOT).equals(BASIC)) {
            return false;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        try {
            return MessageDigest.isEqual(decoded, userColonPassword);
        } finally {
            Arrays.fill(decoded, (byte) 0);
        }
    }

    /**
     * What an OS client that prompts for user and password reads on its standard input: the user and
     * the password, each on its own line. The caller wipes the array after use.
     */
    synchronized byte[] clientInput() {
        if (wiped) {
            throw new IllegalStateException("the server has stopped");
        }
        byte[] input = userColonPassword.clone();
        input[USER.length()] = '\n';
        byte[] withNewline = Arrays.copyOf(input, input.length + 1);
        withNewline[input.length] = '\n';
        Arrays.fill(input, (byte) 0);
        return withNewline;
    }

    /** Forgets the password: {@link #accepts} refuses everything from now on. */
    synchronized void wipe() {
        Arrays.fill(userColonPassword, (byte) 0);
        wiped = true;
    }

    @Override
    public String toString() {
        return "DavCredential[user=" + USER + "]"; // never the password
    }
}
