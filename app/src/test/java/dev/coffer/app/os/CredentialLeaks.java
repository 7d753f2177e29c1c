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
 * be, without knowing it: every run of base64url characters long enough to hold a password (32
 * characters) in the files under some folders, in {@code /proc/mounts} and in every process's
 * command line and environment is tried as the password of user {@code coffer} against the server;
 * {@link #working} returns the places whose token the server accepts (must be none). Every window
 * of {@value #PASSWORD_LENGTH} characters of a longer run is tried too. The ITs run it while the
 * mount is up and after it is gone. {@code CredentialLeaksTest} proves it finds a password that is
 * there.
 */
public final class CredentialLeaks {
    static final int PASSWORD_LENGTH = 32;
    private static final Pattern RUN = Pattern.compile("[A-Za-z0-9_-]{" + PASSWORD_LENGTH + ",}");
    private static final long MAX_FILE_BYTES = 16L << 20;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;
    private final List<String> found = new ArrayList<>();
    private final Set<String> tried = new LinkedHashSet<>();

    private CredentialLeaks(String url) {
        this.url = URI.create(url);
    }

    /**
     * The places (file, process) holding a password that {@code url} accepts for user
     * {@code coffer}: searched are the regular files under {@code folders} (missing ones are
     * skipped), {@code /proc/mounts}, and each process's command line and environment.
     */
    public static List<String> working(String url, List<Path> folders) throws IOException, InterruptedException {
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
        return scan.found;
    }

    /** How many distinct tokens the last scans tried (to see that the scan looked at something). */
    int tried() {
        return tried.size();
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
                return;
            }
            text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return; // gone, or a socket/fifo/unreadable /proc entry
        }
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
    static CredentialLeaks ofTexts(String url, List<String> texts, List<String> found) throws InterruptedException {
        CredentialLeaks scan = new CredentialLeaks(url);
        for (String t : texts) {
            scan.text("text", t);
        }
        found.addAll(scan.found);
        return scan;
    }
}
