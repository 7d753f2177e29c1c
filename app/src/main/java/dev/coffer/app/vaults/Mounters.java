package dev.coffer.app.vaults;

import java.util.EnumMap;
import java.util.Map;

/**
 * The mount methods this build has, and the choice for {@link MountMethod#AUTO}: FUSE where it
 * works, otherwise WebDAV if that mounter is registered. When FUSE is missing and there is no
 * WebDAV to fall back to, the FUSE message (what to install) is what the person sees.
 *
 * <p>Not responsible for mounting itself (the {@link Mounter}s).
 */
public final class Mounters {
    private final Map<MountMethod, Mounter> byMethod = new EnumMap<>(MountMethod.class);

    /** Registers {@code mounter} for its method (replacing an earlier one). */
    public Mounters with(Mounter mounter) {
        if (mounter.method() == MountMethod.AUTO) {
            throw new IllegalArgumentException("AUTO is a choice, not a mounter");
        }
        byMethod.put(mounter.method(), mounter);
        return this;
    }

    /** FUSE, and WebDAV (mounted by the OS where it can be) as the fallback of AUTO and a method of its own. */
    public static Mounters defaults() {
        return new Mounters().with(new FuseMounter()).with(new WebDavMounter(true));
    }

    /** The mounter for {@code method}, checked to be usable here. */
    public Mounter choose(MountMethod method) throws VaultException {
        if (method != MountMethod.AUTO) {
            Mounter m = byMethod.get(method);
            if (m == null) {
                throw new VaultException(Problem.METHOD_UNAVAILABLE, method.name());
            }
            m.checkAvailable();
            return m;
        }
        Mounter fuse = byMethod.get(MountMethod.FUSE);
        VaultException fuseProblem = null;
        if (fuse != null) {
            try {
                fuse.checkAvailable();
                return fuse;
            } catch (VaultException e) {
                fuseProblem = e;
            }
        }
        Mounter webDav = byMethod.get(MountMethod.WEBDAV);
        if (webDav != null) {
            webDav.checkAvailable();
            return webDav;
        }
        throw fuseProblem != null ? fuseProblem : new VaultException(Problem.METHOD_UNAVAILABLE, "AUTO");
    }
}
