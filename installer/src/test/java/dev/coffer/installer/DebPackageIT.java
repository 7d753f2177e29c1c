package dev.coffer.installer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds the .deb with the real packaging script, installs it into this machine with dpkg, uses the
 * installed {@code coffer} command and the desktop integration as a person would, then removes the
 * package and checks that nothing but the person's own files is left. Needs root (or password-less
 * sudo), dpkg, fakeroot, xdg-utils and desktop-file-utils: scripts/test.sh installs them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebPackageIT {
    private static final String MIME = "application/vnd.coffer.vault";
    /** Everything the package installs outside /opt/coffer, which must go again on removal. */
    private static final List<String> INSTALLED_OUTSIDE_OPT = List.of("/usr/bin/coffer",
            "/usr/share/applications/coffer-Coffer.desktop", "/usr/share/mime/packages/coffer-Coffer-MimeInfo.xml",
            "/usr/share/icons/hicolor/48x48/apps/coffer.png",
            "/usr/share/icons/hicolor/256x256/mimetypes/application-vnd.coffer.vault.png");

    private static Path deb;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void buildAndInstall() throws IOException, InterruptedException {
        Path output = Path.of(System.getProperty("package.output"));
        Commands.run(900, System.getProperty("package.script"), System.getProperty("package.input"), output.toString(),
                System.getProperty("package.version"), "app-image", "deb").expectSuccess("build-packages.sh");
        try (Stream<Path> s = Files.list(output)) {
            deb = s.filter(p -> p.toString().endsWith(".deb")).findFirst().orElseThrow(() -> new AssertionError("no .deb in " + output));
        }
        assertThat(output.resolve("coffer-" + System.getProperty("package.version") + "-linux-x64.tar.gz")).isRegularFile();
        // A left-over installation from an aborted run would hide what this one installs.
        Commands.run(120, "dpkg", "--purge", "coffer");
        Commands.run(300, "dpkg", "-i", deb.toString()).expectSuccess("dpkg -i");
        reportSizes();
    }

    @AfterAll
    static void removeIfStillInstalled() throws IOException, InterruptedException {
        Commands.run(120, "dpkg", "--purge", "coffer");
    }

    @Test
    @Order(1)
    void theInstalledCommandCreatesAndDescribesAVault() throws IOException, InterruptedException {
        assertThat(Path.of("/usr/bin/coffer")).isSymbolicLink();
        // With its release, as every build of this version has (an installed 0.1.0-1 would not take a 0.1.0).
        assertThat(Commands.run(30, "dpkg-query", "-W", "-f=${Version}", "coffer").expectSuccess("dpkg-query").output())
                .isEqualTo(System.getProperty("package.version") + "-1");
        assertThat(Commands.run(60, "/usr/bin/coffer", "--version").expectSuccess("coffer --version").output())
                .startsWith("coffer 0.1.0");
        Path vault = tmp.resolve("my vault");
        Map<String, String> env = Map.of("COFFER_PASSPHRASE", "package test passphrase");
        Commands.run(120, env, tmp, "/usr/bin/coffer", "create", "--scrypt-n", "16384", vault.toString())
                .expectSuccess("coffer create");
        assertThat(Commands.run(120, env, tmp, "/usr/bin/coffer", "info", vault.toString()).expectSuccess("coffer info").output())
                .contains("SIV_XTSHMAC");

        // The installed runtime and the trimmed jars mount with FUSE (jnr/jffi's native code).
        Path mnt = tmp.resolve("drive");
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/coffer", "mount", vault.toString(), mnt.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("mount.log").toFile());
        pb.environment().putAll(env);
        Process mount = pb.start();
        try {
            Path probe = mnt.resolve("hello.txt");
            long end = System.nanoTime() + 60_000_000_000L;
            while (!isMounted(mnt) && System.nanoTime() < end && mount.isAlive()) {
                Thread.sleep(200);
            }
            assertThat(isMounted(mnt)).as("mounted; log:%n%s", Files.readString(tmp.resolve("mount.log"))).isTrue();
            Files.writeString(probe, "written through the installed package");
            assertThat(Files.readString(probe)).isEqualTo("written through the installed package");
            assertStartedFromTheAotCacheIfItsRuntimeHasOne(mount.pid());
        } finally {
            mount.destroy(); // SIGTERM: unmounts and locks
            assertThat(mount.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("coffer mount ends on SIGTERM").isTrue();
        }
        assertThat(isMounted(mnt)).isFalse();
        assertThat(Commands.run(120, env, tmp, "/usr/bin/coffer", "cat", vault.toString(), "/hello.txt")
                .expectSuccess("coffer cat").output()).isEqualTo("written through the installed package");
    }

    /**
     * A JDK 25+ runtime comes with an AOT cache trained at packaging (train-aot-cache.sh). The JVM
     * ignores a cache whose jars do not match it, silently but for stderr, so the test looks at what
     * the mount's JVM has mapped: the cache file is mapped only while it is in use.
     */
    private static void assertStartedFromTheAotCacheIfItsRuntimeHasOne(long pid) throws IOException {
        Path cache = Path.of("/opt/coffer/lib/app/coffer.aot");
        String launcherConfig = Files.readString(Path.of("/opt/coffer/lib/app/Coffer.cfg"));
        String maps = Files.readString(Path.of("/proc", Long.toString(pid), "maps"));
        if (runtimeFeatureVersion() >= 25) {
            assertThat(cache).isRegularFile();
            assertThat(launcherConfig).contains("java-options=-XX:AOTCache=$APPDIR/coffer.aot");
            assertThat(maps).as("the mount's JVM maps its AOT cache").contains(cache.toString());
        } else {
            assertThat(cache).doesNotExist();
            assertThat(launcherConfig).doesNotContain("AOTCache");
        }
    }

    private static int runtimeFeatureVersion() throws IOException {
        String release = Files.readString(Path.of("/opt/coffer/lib/runtime/release"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(release);
        assertThat(m.find()).as("JAVA_VERSION in the runtime's release file").isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static boolean isMounted(Path mountPoint) throws IOException {
        String target = mountPoint.toAbsolutePath().toString();
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(target));
    }

    @Test
    @Order(2)
    void vaultFilesOpenWithCoffer() throws IOException, InterruptedException {
        Path vault = tmp.resolve("association");
        Commands.run(120, Map.of("COFFER_PASSPHRASE", "package test passphrase"), tmp, "/usr/bin/coffer", "create",
                "--scrypt-n", "16384", vault.toString()).expectSuccess("coffer create");
        assertThat(Commands.run(30, "xdg-mime", "query", "filetype", vault.resolve("vault.coffer").toString())
                .expectSuccess("xdg-mime query filetype").output().trim()).isEqualTo(MIME);
        assertThat(Commands.run(30, "xdg-mime", "query", "default", MIME).expectSuccess("xdg-mime query default")
                .output().trim()).isEqualTo("coffer-Coffer.desktop");
        String desktop = Files.readString(Path.of("/usr/share/applications/coffer-Coffer.desktop"));
        assertThat(desktop).contains("Name=Coffer", "Exec=/opt/coffer/bin/Coffer %f", "MimeType=" + MIME, "Icon=coffer");
        for (int size : new int[] {16, 24, 32, 48, 64, 128, 256, 512}) {
            assertThat(Path.of("/usr/share/icons/hicolor/" + size + "x" + size + "/apps/coffer.png")).isRegularFile();
        }
    }

    @Test
    @Order(3)
    void doubleClickingAVaultFileOpensTheUnlockDialog() throws IOException, InterruptedException {
        Path vault = tmp.resolve("Travel documents");
        Commands.run(120, Map.of("COFFER_PASSPHRASE", "package test passphrase"), tmp, "/usr/bin/coffer", "create",
                "--scrypt-n", "16384", vault.toString()).expectSuccess("coffer create");
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path screenshot = deb.resolveSibling("installed-gui-unlock.png");
        try (VirtualDisplay display = VirtualDisplay.start()) {
            // What the desktop entry runs for a double-clicked file: Exec=/opt/coffer/bin/Coffer %f.
            Map<String, String> env = Map.of("DISPLAY", display.name(), "HOME", home.toString(),
                    "XDG_CONFIG_HOME", home.resolve(".config").toString());
            ProcessBuilder pb = new ProcessBuilder("/opt/coffer/bin/Coffer", vault.resolve("vault.coffer").toString())
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("gui.log").toFile());
            pb.environment().putAll(env);
            Process gui = pb.start();
            try {
                String window = display.awaitWindow("Unlock Travel documents", 90);
                assertThat(window).as("the unlock dialog's window").isNotEmpty();
                display.screenshot(screenshot);
                assertThat(screenshot).isRegularFile();
                assertThat(gui.isAlive()).as("the app keeps running with its dialog open").isTrue();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\napp output:\n" + Files.readString(tmp.resolve("gui.log")), e);
            } finally {
                gui.descendants().forEach(ProcessHandle::destroy);
                gui.destroy();
                if (!gui.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    gui.destroyForcibly();
                }
            }
        }
    }

    @Test
    @Order(4)
    void removingThePackageLeavesOnlyThePersonsFiles() throws IOException, InterruptedException {
        Path settings = Path.of(System.getProperty("user.home"), ".config", "coffer");
        boolean hadSettings = Files.isDirectory(settings);
        Commands.run(300, "dpkg", "-r", "coffer").expectSuccess("dpkg -r");
        assertThat(Path.of("/opt/coffer")).doesNotExist();
        List<String> left = new ArrayList<>();
        for (String p : INSTALLED_OUTSIDE_OPT) {
            if (Files.exists(Path.of(p), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                left.add(p);
            }
        }
        assertThat(left).as("files the package left behind").isEmpty();
        assertThat(Files.readString(Path.of("/usr/share/applications/mimeinfo.cache"))).doesNotContain("coffer");
        assertThat(tmp.resolve("my vault").resolve("vault.coffer")).as("the person's vault").isRegularFile();
        assertThat(Files.isDirectory(settings)).as("the person's settings stay as they were").isEqualTo(hadSettings);
    }

    private static void reportSizes() throws IOException, InterruptedException {
        String installed = Commands.run(30, "dpkg-query", "-W", "-f=${Installed-Size}", "coffer")
                .expectSuccess("dpkg-query").output().trim();
        String report = String.format("coffer package: %s, %.1f MB; installed size %.1f MB%n", deb.getFileName(),
                Files.size(deb) / 1e6, Long.parseLong(installed) * 1024 / 1e6);
        Files.writeString(deb.resolveSibling("sizes.txt"), report);
        System.out.print(report);
    }
}
