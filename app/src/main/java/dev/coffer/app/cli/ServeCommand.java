package dev.coffer.app.cli;

import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.webdav.OsMount;
import dev.coffer.webdav.WebDavServer;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer serve VAULT [--port N] [--mount]}: unlocks the vault, serves it over WebDAV on the
 * loopback interface ({@code frontend-webdav}), prints the URL, optionally mounts it with the OS's
 * own client, and stays in the foreground until SIGINT or SIGTERM; then unmounts, stops and locks
 * the vault ({@link ServeSession}). With {@code --mount} where Coffer mounts itself (Linux), the
 * server requires its HTTP Basic credential, which only the mount gets; if the mount fails, that
 * server stops and one without a credential serves a new URL instead, which is printed (as it is
 * without {@code --mount}). A signal while mounting stops the mount tools, the server and locks
 * ({@link MountingGuard}).
 *
 * <p>Not responsible for the server ({@code frontend-webdav}) or for the vault (core).
 */
@Command(name = "serve", description = {
    "Unlocks the vault and serves it over WebDAV on 127.0.0.1 only, at a URL with an unguessable path; prints the "
            + "URL and stays in the foreground. Ctrl-C (SIGINT) or SIGTERM stops serving and locks the vault.",
    "Use it where FUSE is missing: file managers (Windows Explorer, macOS Finder, GNOME Files, Dolphin) and davfs2 "
            + "mount the URL. Anyone who knows the URL and can connect to 127.0.0.1 can read and change the files.",
    "With --mount on Linux the server also requires a password that only the mount is given (on its standard input), "
            + "so the URL alone, which other local users can see in the mount table, opens nothing."})
final class ServeCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Option(names = "--port", paramLabel = "N", description = "The TCP port (default 0: any free port).")
    int port;

    @Option(names = "--mount", description = "Also mount it: Linux with gio (desktop session) or davfs2 (as root), "
            + "printing where; on macOS and Windows print the command to mount it.")
    boolean mount;

    @Mixin
    PassphraseOptions passphrase;

    ServeCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65_535) {
            throw CliException.usage("--port must be between 0 and 65535: " + port);
        }
        Vaults.requireVault(vault);
        CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, false);
        // Core opens a vault whose folder cannot be written read-only and says why; so does the server.
        for (String warning : fs.storeLimits().warnings()) {
            ctx.err().println("coffer: WARN " + warning);
        }
        ConflictCopyLines.printTo(fs, ctx.err()); // before the drive exists: every copy is told
        // Held until the process ends: `coffer check --repair` refuses while the vault is served.
        VaultUseLock inUse = Vaults.holdInUse(fs, vault);
        // Coffer's own mount puts the URL where other local users can read it: that server also
        // requires a credential, which only the mount gets. Without --mount the URL is the user's.
        boolean mountHere = mount && OsMount.canMountHere();
        WebDavServer server = start(fs, inUse, mountHere);
        OsMount osMount = null;
        MountingGuard guard = null;
        if (mountHere) {
            guard = new MountingGuard(server, fs, ctx.err()); // a signal while mounting must stop the mount tools too
            try {
                osMount = mount(server, guard);
                if (guard.signalled()) {
                    guard.awaitHalt();
                }
                if (osMount == null) {
                    // nothing can use the credential: serve the URL alone, at a new secret (a late mount of
                    // the old one finds nothing)
                    try {
                        server.close();
                    } catch (IOException e) {
                        ctx.err().println("coffer: stopping the server failed: " + ExitCodes.message(e));
                    }
                    server = start(fs, inUse, false);
                }
            } catch (Exception | Error e) {
                guard.cancel();
                throw e;
            }
        }
        ctx.out().println(server.url());
        ctx.out().flush();
        if (mount && !mountHere) {
            ctx.err().println("coffer: to mount it:\n" + OsMount.instructions(server));
        }
        ctx.err().println("coffer: serving on 127.0.0.1 only; Ctrl-C stops serving and locks the vault");
        try {
            ServeSession session = new ServeSession(server, osMount, fs, ctx.err());
            if (guard == null) {
                Foreground.hold(session, "coffer-stop-serving");
            } else {
                Foreground.hold(session, guard.handOver(session));
            }
        } finally {
            inUse.close(); // after a signal the process ends, and the kernel drops the lock with it
        }
        return ExitCodes.OK;
    }

    /** Starts the server (with a credential for Coffer's own mount); if it cannot start, locks the vault and says why. */
    private WebDavServer start(CofferFileSystem fs, VaultUseLock inUse, boolean withCredential) throws IOException, CliException {
        try {
            return withCredential ? WebDavServer.startWithCredential(fs.getPath("/"), port) : WebDavServer.start(fs.getPath("/"), port);
        } catch (IOException e) {
            inUse.close();
            fs.close();
            if (isBindFailure(e)) {
                throw CliException.usage("port " + port + " is in use on 127.0.0.1: choose another with --port N, "
                        + "or --port 0 for any free port");
            }
            throw e;
        } catch (RuntimeException e) {
            inUse.close();
            fs.close();
            throw e;
        }
    }

    /** Mounts with the OS's client; null (having said why, unless a signal ended the mounting) if it cannot. */
    private OsMount mount(WebDavServer server, MountingGuard guard) {
        OsMount m = null;
        try {
            m = OsMount.mount(server);
            if (!guard.signalled()) {
                ctx.err().println("coffer: mounted at " + m.where());
            }
            return m;
        } catch (IOException e) {
            if (!guard.signalled()) {
                ctx.err().println("coffer: not mounted: " + ExitCodes.message(e));
            }
            return null;
        } catch (RuntimeException | Error e) {
            try {
                server.close(); // nothing may keep running with the credential
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        } finally {
            guard.mountingEnded(m);
        }
    }

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }
}
