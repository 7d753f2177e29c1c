package dev.coffer.core.nio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The permissions a new folder's storage folder is made with. Coffer writes {@code dirid.c9r} into
 * it and syncs it before the folder is complete, so its owner must be able to read, write and search
 * it meanwhile: those bits are added at its creation and, where the folder was asked for without
 * some of them, taken away again afterwards (the bits the umask removed at creation stay removed,
 * as the default provider's {@code mkdir} leaves them).
 */
final class StoragePermissions {
    private static final Set<PosixFilePermission> OWNER_ALL = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
    private static final StoragePermissions NONE = new StoragePermissions(null);

    private final Set<PosixFilePermission> asked; // null: none asked for, the store's default

    private StoragePermissions(Set<PosixFilePermission> asked) {
        this.asked = asked;
    }

    /** From what {@link CreationAttributes#forCiphertext} gave: no attribute, or the permissions. */
    static StoragePermissions of(FileAttribute<?>[] attrs) {
        if (attrs.length == 0) {
            return NONE;
        }
        Set<PosixFilePermission> asked = EnumSet.noneOf(PosixFilePermission.class);
        for (Object o : (Set<?>) attrs[attrs.length - 1].value()) {
            asked.add((PosixFilePermission) o);
        }
        return new StoragePermissions(asked);
    }

    /** The attributes to create the storage folder with. */
    FileAttribute<?>[] whileBuilding() {
        if (asked == null) {
            return CreationAttributes.NONE;
        }
        Set<PosixFilePermission> building = EnumSet.copyOf(OWNER_ALL);
        building.addAll(asked);
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(building)};
    }

    /** Once the storage folder holds what it must: takes away the owner's bits that were only added for building. */
    void finish(Path storage) throws IOException {
        if (asked == null || asked.containsAll(OWNER_ALL)) {
            return;
        }
        Set<PosixFilePermission> now = EnumSet.noneOf(PosixFilePermission.class);
        now.addAll(Files.getPosixFilePermissions(storage, LinkOption.NOFOLLOW_LINKS));
        for (PosixFilePermission p : OWNER_ALL) {
            if (!asked.contains(p)) {
                now.remove(p);
            }
        }
        Files.setPosixFilePermissions(storage, now);
    }
}
