package dev.coffer.app.cli;

import dev.coffer.core.health.VaultUseLock;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.fuse.FuseMount;
import dev.coffer.fuse.FuseUnavailableException;
import dev.coffer.fuse.MountOptions;
import dev.coffer.fuse.MountPointException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer mount VAULT MOUNTPOINT [--read-only] [-o OPTION]... [--force]}: unlocks the vault,
 * mounts it with FUSE, prints the mount point, and stays in the foreground until SIGINT or SIGTERM
 * (or until somebody unmounts it); then unmounts and locks the vault ({@link MountSession}).
 *
 * <p>Not responsible for the file system ({@code frontend-fuse}) or for the vault (core).
 */
@Command(name = "mount", description = {
    "Unlocks the vault and mounts it at MOUNTPOINT with FUSE, prints the mount point, and stays in the "
            + "foreground. Ctrl-C (SIGINT) or SIGTERM unmounts it and locks the vault; so does unmounting it "
            + "from elsewhere (fusermount -u MOUNTPOINT).",
    "A missing MOUNTPOINT is created (and removed again after unmounting); an existing one must be an empty "
            + "folder. A stale mount left there by a killed coffer is cleared first.",
    "While programs still use the mount (an open file, a shell inside it), stopping waits until they are done, "
            + "unless --force was given."})
final class MountCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Parameters(index = "1", paramLabel = "MOUNTPOINT", description = "Where the vault appears: a missing or empty folder.")
    Path mountPoint;

    @Option(names = "--read-only", description = "Mount read-only: nothing in the vault can be changed.")
    boolean readOnly;

    @Option(names = "-o", paramLabel = "OPTION",
            description = "A FUSE mount option, e.g. -o allow_other (repeatable; see man mount.fuse3).")
    List<String> fuseOptions = new ArrayList<>();

    @Option(names = "--force", description = "When stopping, unmount even if programs still have files open in the "
            + "mount (they then get I/O errors) instead of waiting for them.")
    boolean force;

    @Mixin
    PassphraseOptions passphrase;

    MountCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Vaults.requireVault(vault);
        requireOutsideVault();
        try {
            FuseMount.checkAvailable();
        } catch (FuseUnavailableException e) {
            throw new CliException(ExitCodes.OTHER, e.getMessage());
        }
        CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, readOnly);
        // Core opens a vault whose folder cannot be written read-only and says why; so does the mount.
        for (String warning : fs.storeLimits().warnings()) {
            ctx.err().println("coffer: WARN " + warning);
        }
        ConflictCopyLines.printTo(fs, ctx.err()); // before the drive exists: every copy is told
        boolean mountReadOnly = readOnly || fs.isReadOnly();
        // Held until the process ends: `coffer check --repair` refuses while the vault is mounted.
        VaultUseLock inUse = Vaults.holdInUse(fs, vault);
        FuseMount mount;
        try {
            mount = FuseMount.mount(fs.getPath("/"), mountPoint, MountOptions.defaults(mountReadOnly).withFuseOptions(fuseOptions));
        } catch (MountPointException e) {
            inUse.close();
            fs.close();
            throw CliException.usage(e.getMessage());
        } catch (IOException | RuntimeException e) {
            inUse.close();
            fs.close();
            throw e;
        }
        ctx.out().println(mount.mountPoint());
        ctx.out().flush();
        ctx.err().println("coffer: mounted" + (mountReadOnly ? " read-only" : "") + "; Ctrl-C unmounts and locks the vault");
        try {
            Foreground.hold(new MountSession(mount, fs, ctx.err(), force), "coffer-unmount");
        } finally {
            inUse.close(); // after a signal the process ends, and the kernel drops the lock with it
        }
        return ExitCodes.OK;
    }

    /** A mount point inside the vault folder would put cleartext where the cloud client syncs. */
    private void requireOutsideVault() throws CliException {
        if (dev.coffer.fuse.MountPaths.isInside(mountPoint, vault)) {
            throw CliException.usage("the mount point must not be inside the vault folder: " + mountPoint
                    + " (the cleartext would be synced with the vault)");
        }
    }
}
