package dev.coffer.core.nio;

import java.util.List;
import java.util.OptionalInt;

/**
 * What the file system holding a vault's ciphertext allows, as probed when the vault was opened
 * ({@link StoreProbe}): whether it can be written at all, whether it folds the case of names, and
 * whether it refuses names as long as the vault writes. Each limit found comes with a warning that
 * says what it means for the user; a frontend shows {@link #warnings()} when it mounts.
 *
 * <p>Not responsible for acting on the limits: the opening switches to read-only on a read-only
 * store, the rest is reported.
 *
 * @param probed          false if the store was not probed (a read-only opening writes nothing, so
 *                        only {@link #readOnly} is known then)
 * @param readOnly        nothing can be written to the vault folder (a read-only mount, no
 *                        permission): the vault was opened read-only
 * @param caseInsensitive {@code Name} and {@code NAME} are the same file there (vfat, exFAT, NTFS,
 *                        APFS by default): encrypted names are case-sensitive Base64url, so two
 *                        entries could collide (unlikely, but not impossible)
 * @param nameLengthLimit the longest name the store accepted, if shorter than the longest name the
 *                        vault writes ({@link #neededNameLength}); then entries with long names
 *                        cannot be created there
 * @param neededNameLength the longest on-disk name this vault writes (its shortening threshold)
 * @param warnings        one message per limit found, for the user
 */
public record StoreLimits(boolean probed, boolean readOnly, boolean caseInsensitive, OptionalInt nameLengthLimit,
                          int neededNameLength, List<String> warnings) {
    public StoreLimits {
        warnings = List.copyOf(warnings);
    }
}
