package dev.coffer.app.os;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A private desktop session for the keyring, theme and gvfs tests: a D-Bus session bus ({@code
 * dbus-daemon}) with GNOME Keyring's Secret Service on it (unlocked with a throwaway password fed
 * on stdin) and dconf (activated by the bus when gsettings first writes), everything (bus socket,
 * keyrings, settings, caches) inside a temp folder. The JVM reaches the bus through the {@code
 * DBUS_SESSION_BUS_ADDRESS} system property, which dbus-java reads before the environment; child
 * processes get the session's environment from {@link #command}. No other test and nothing of the
 * machine's own session is touched. A missing program is a failure naming the Debian package
 * (scripts/test.sh installs them).
 *
 * <p>Not responsible for what is stored (the tests use {@link SystemKeyring}, gsettings).
 */
public final class DesktopSession implements AutoCloseable {
    public static final String BUS_PROPERTY = "DBUS_SESSION_BUS_ADDRESS";

    private final Path root;
    private final String address;
    private final List<Process> processes = new ArrayList<>();

    private DesktopSession(Path root) {
        this.root = root;
        this.address = "unix:path=" + root.resolve("run/bus");
    }

    /** Starts the bus and the keyring under {@code root} and points this JVM's D-Bus clients at them. */
    public static DesktopSession start(Path root) throws IOException, InterruptedException {
        require("/usr/bin/dbus-daemon", "dbus-daemon (Debian package dbus)");
        require("/usr/bin/gnome-keyring-daemon", "gnome-keyring-daemon (Debian package gnome-keyring)");
        require("/usr/bin/secret-tool", "secret-tool (Debian package libsecret-tools)");
        require("/usr/bin/gsettings", "gsettings (Debian package libglib2.0-bin)");
        require("/usr/libexec/dconf-service", "dconf-service (Debian package dconf-service)");
        DesktopSession s = new DesktopSession(root);
        try {
            s.startBus();
            s.startKeyring();
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            s.close();
            throw e;
        }
        System.setProperty(BUS_PROPERTY, s.address);
        return s;
    }

    /**
     * Starts only the bus under {@code root} (no keyring), for tests of programs the bus starts on
     * demand (gvfs); {@link #close} also stops those.
     */
    public static DesktopSession startBusOnly(Path root) throws IOException, InterruptedException {
        require("/usr/bin/dbus-daemon", "dbus-daemon (Debian package dbus)");
        DesktopSession s = new DesktopSession(root);
        try {
            s.startBus();
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            s.close();
            throw e;
        }
        System.setProperty(BUS_PROPERTY, s.address);
        return s;
    }

    private static void require(String program, String what) {
        if (!Files.isExecutable(Path.of(program))) {
            throw new AssertionError("the keyring tests need " + what + ": run scripts/test.sh, which installs it");
        }
    }

    /** The bus address, for command-line clients ({@code secret-tool}). */
    public String address() {
        return address;
    }

    private void startBus() throws IOException, InterruptedException {
        for (String dir : List.of("home", "data", "cache", "config")) {
            Files.createDirectories(root.resolve(dir));
        }
        Files.createDirectories(root.resolve("run"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        processes.add(command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + address)
                .redirectOutput(root.resolve("dbus.log").toFile()).redirectErrorStream(true).start());
        await("the D-Bus session bus", () -> Files.exists(root.resolve("run/bus")));
    }

    private void startKeyring() throws IOException, InterruptedException {
        Process keyring = command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
                .redirectOutput(root.resolve("keyring.log").toFile()).redirectErrorStream(true).start();
        processes.add(keyring);
        try (OutputStream in = keyring.getOutputStream()) {
            in.write("throwaway test keyring password".getBytes(StandardCharsets.UTF_8)); // unlocks the login keyring
        }
        // ready once the Secret Service answers on the bus (secret-tool exits 1 for "nothing found")
        await("GNOME Keyring's Secret Service on the bus", () -> {
            Process p = secretTool("search", "coffer-test", "ready");
            return p.waitFor(10, TimeUnit.SECONDS) && Files.exists(root.resolve("run/keyring/control"))
                    && p.exitValue() <= 1 && !new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                            .contains("not provided by any .service");
        });
    }

    /** Runs {@code secret-tool} against this session. */
    public Process secretTool(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("secret-tool"));
        cmd.addAll(List.of(args));
        return command(cmd.toArray(String[]::new)).redirectErrorStream(true).start();
    }

    /** Sets a GNOME setting in this session ({@code gsettings set}), as the desktop's settings app does. */
    public void gsettingsSet(String schema, String key, String value) throws IOException, InterruptedException {
        Process p = command("gsettings", "set", schema, key, value).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("gsettings set " + key + " failed: " + out);
        }
    }

    /** Looks up a secret with {@code secret-tool lookup} (empty string: nothing stored). */
    public String lookup(String... attributes) throws IOException, InterruptedException {
        String[] args = new String[attributes.length + 1];
        args[0] = "lookup";
        System.arraycopy(attributes, 0, args, 1, attributes.length);
        Process p = secretTool(args);
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("secret-tool lookup did not answer within 10 s");
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** {@code cmd} in this session: its bus, its home and XDG folders, nothing else of the environment. */
    public ProcessBuilder command(String... cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("HOME", root.resolve("home").toString());
        env.put("XDG_RUNTIME_DIR", root.resolve("run").toString());
        env.put("XDG_DATA_HOME", root.resolve("data").toString());
        env.put("XDG_CACHE_HOME", root.resolve("cache").toString());
        env.put("XDG_CONFIG_HOME", root.resolve("config").toString());
        env.put("DBUS_SESSION_BUS_ADDRESS", address);
        return pb;
    }

    private void unmountGvfsFolder() {
        Path gvfs = runtimeDir().resolve("gvfs");
        try {
            if (Files.readString(Path.of("/proc/mounts")).contains(" " + gvfs + " ")) {
                Path log = Files.createTempFile("fusermount", ".log");
                try {
                    // output to a file, not a pipe: reading a pipe to its end would wait forever on a hung fusermount
                    Process p = new ProcessBuilder("fusermount", "-u", gvfs.toString()).redirectErrorStream(true)
                            .redirectOutput(log.toFile()).start();
                    boolean ended = p.waitFor(30, TimeUnit.SECONDS);
                    if (!ended) {
                        p.destroyForcibly();
                    }
                    if (!ended || p.exitValue() != 0) {
                        throw new AssertionError("fusermount -u " + gvfs + " failed: " + Files.readString(log));
                    }
                } finally {
                    Files.deleteIfExists(log);
                }
            }
        } catch (IOException e) {
            throw new AssertionError("unmounting " + gvfs + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM to what {@code bus} started on demand (gvfsd and its helpers, dconf), waiting up to 5 s for them. */
    private static void stopServicesStartedBy(Process bus) {
        List<ProcessHandle> services = bus.descendants().toList();
        services.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle h : services) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                h.destroyForcibly();
            }
        }
    }

    private void await(String what, HelperProcesses.Check check) throws IOException, InterruptedException {
        HelperProcesses.await(what, processes, "; see " + root, check);
    }

    /** The session's folder for runtime files ({@code XDG_RUNTIME_DIR}: the bus socket, gvfs's FUSE folder). */
    public Path runtimeDir() {
        return root.resolve("run");
    }

    /**
     * Unmounts gvfsd-fuse's folder if gvfs mounted one (a SIGTERM under load may leave it mounted),
     * stops the keyring, the services the bus started and the bus, and forgets the bus address.
     */
    @Override
    public void close() {
        System.clearProperty(BUS_PROPERTY);
        try {
            unmountGvfsFolder();
        } finally {
            stopProcesses();
        }
    }

    private void stopProcesses() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            stopServicesStartedBy(p);
            p.destroy();
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
