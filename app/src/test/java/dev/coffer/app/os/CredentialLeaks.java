package dev.coffer.app.os;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Test helper: looks for the password of a WebDAV server's HTTP Basic credential where it must never
 * be, without knowing it, in the files under some folders, in {@code /proc/mounts} and in every
 * process's command line and environment. Two forms are tried against the server: every run of
 * base64url characters long enough to hold a password ({@value #PASSWORD_LENGTH} characters; every
 * window of that length of a longer run) as the password of user {@code coffer}, and every
 * {@value #HEADER_LENGTH}-character window of a standard-base64 run that decodes to
 * {@code coffer:} and a password (the value of an {@code Authorization: Basic} header, as HTTP
 * debug logs show it). {@link #working} returns a {@link Result}: the places whose token the
 * server accepts (must be none), and how many files it read and tokens it tried (must not be
 * none: a scan that read nothing proves nothing). The ITs run it while the mount is up.
 * {@code CredentialLeaksTest} proves it finds a password that is there, in both forms.
 */
public final class CredentialLeaks {
    static final int PASSWORD_LENGTH = 32;
    /** The length of base64("coffer:" + password): 39 bytes, no padding. */
    static final int HEADER_LENGTH = 52;
    private static final String USER_PREFIX = "coffer:";
    private static final Pattern RUN = Pattern.compile("[A-Za-z0-9_-]{" + PASSWORD_LENGTH + ",}");
    private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/]{" + HEADER_LENGTH + ",}");
    private static final long MAX_FILE_BYTES = 16L << 20;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;
    private final List<String> found = new ArrayList<>();
    private final Set<String> tried = new LinkedHashSet<>();
    private int filesRead;
    private int filesSkipped;

    /**
     * What a scan found.
     *
     * @param found        the places (file, process) holding a password the server accepts
     * @param filesRead    how many files (and /proc entries) were read
     * @param filesSkipped how many could not be read (gone, unreadable, too large)
     * @param tokensTried  how many distinct candidate passwords were tried against the server
     */
    public record Result(List<String> found, int filesRead, int filesSkipped, int tokensTried) {
        /** Fails if a password was found, or if the scan read no file or tried no token (then it proved nothing). */
        public void assertNoPasswordFound() {
            if (!found.isEmpty() || filesRead == 0 || tokensTried == 0) {
                throw new AssertionError("places holding the mount's password must be none, after a scan that read something: " + this);
            }
        }

        @Override
        public String toString() {
            return "found " + found + " after reading " + filesRead + " files (" + filesSkipped + " skipped) and trying "
                    + tokensTried + " tokens";
        }
    }

    private CredentialLeaks(String url) {
        this.url = URI.create(url);
    }

    /**
     * Scans for a password that {@code url} accepts for user {@code coffer}: searched are the
     * regular files under {@code folders} (missing ones are skipped), {@code /proc/mounts}, and each
     * process's command line and environment.
     */
    public static Result working(String url, List<Path> folders) throws IOException, InterruptedException {
        CredentialLeaks scan = new CredentialLeaks(url);
        for (Path folder : folders) {
            scan.folder(folder);
        }
        scan.file(Path.of("/proc/mounts"));
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                scan.file(p.resolve("cmdline"));
                scan.file(p.resolve("environ"));
            }
        }
        return scan.result();
    }

    private Result result() {
        return new Result(List.copyOf(found), filesRead, filesSkipped, tried.size());
    }

    private void folder(Path folder) throws IOException, InterruptedException {
        if (!Files.isDirectory(folder)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(Files::isRegularFile).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return; // a folder that went away while walking (a process's runtime files)
        }
        for (Path f : files) {
            file(f);
        }
    }

    private void file(Path f) throws InterruptedException {
        String text;
        try {
            if (!f.startsWith("/proc") && Files.size(f) > MAX_FILE_BYTES) {
                filesSkipped++;
                return;
            }
            text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            filesSkipped++; // gone, or a socket/fifo/unreadable /proc entry
            return;
        }
        filesRead++;
        text(f.toString(), text);
    }

    void text(String where, String text) throws InterruptedException {
        Matcher m = RUN.matcher(text);
        while (m.find()) {
            String run = m.group();
            for (int i = 0; i + PASSWORD_LENGTH <= run.length(); i++) {
                String token = run.substring(i, i + PASSWORD_LENGTH);
                if (tried.add(token) && accepted(token)) {
                    found.add(where);
                }
            }
        }
        Matcher b = BASE64_RUN.matcher(text);
        while (b.find()) {
            String run = b.group();
            for (int i = 0; i + HEADER_LENGTH <= run.length(); i++) {
                String password = basicPassword(run.substring(i, i + HEADER_LENGTH));
                if (password != null && tried.add(password) && accepted(password)) {
                    found.add(where);
                }
            }
        }
    }

    /** The password in {@code base64} if it decodes to {@code coffer:PASSWORD}, else null. */
    private static String basicPassword(String base64) {
        String decoded = new String(Base64.getDecoder().decode(base64), StandardCharsets.ISO_8859_1);
        return decoded.startsWith(USER_PREFIX) ? decoded.substring(USER_PREFIX.length()) : null;
    }

    private boolean accepted(String password) throws InterruptedException {
        String basic = Base64.getEncoder().encodeToString(("coffer:" + password).getBytes(StandardCharsets.US_ASCII));
        HttpRequest r = HttpRequest.newBuilder(url).method("PROPFIND", HttpRequest.BodyPublishers.noBody())
                .header("Depth", "0").header("Authorization", "Basic " + basic).timeout(Duration.ofSeconds(10)).build();
        try {
            return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode() != 401;
        } catch (IOException e) {
            throw new AssertionError("the server at " + url + " did not answer while looking for its password", e);
        }
    }

    /** For {@code CredentialLeaksTest}: a scan of {@code texts} alone. */
    static Result ofTexts(String url, List<String> texts) throws InterruptedException {
        CredentialLeaks scan = new CredentialLeaks(url);
        for (String t : texts) {
            scan.text("text", t);
        }
        return scan.result();
    }
}
