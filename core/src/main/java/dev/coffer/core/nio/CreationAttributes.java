package dev.coffer.core.nio;

import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The initial attributes a new file or folder may be given ({@code Files.createFile(path, attrs)},
 * {@code FileChannel.open(path, options, attrs)}, {@code Files.createDirectory(path, attrs)}): only its
 * permissions, where the vault folder's store keeps them. They go to the creation of the ciphertext
 * file (a folder's: its storage folder), so they are set with it and the store applies the process's
 * umask as the default provider does. Anything else is refused as the NIO contract asks, with
 * {@link UnsupportedOperationException}, before anything is created.
 */
final class CreationAttributes {
    /** No initial attributes: what an existing ciphertext file is opened with. */
    static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

    private final boolean posix;

    /** @param posix true if the vault folder's store keeps permissions */
    CreationAttributes(boolean posix) {
        this.posix = posix;
    }

    /** What the ciphertext file (or storage folder) is to be created with, given a new cleartext entry's {@code attrs}. */
    FileAttribute<?>[] forCiphertext(FileAttribute<?>... attrs) {
        if (attrs == null || attrs.length == 0) {
            return NONE;
        }
        Set<PosixFilePermission> permissions = null;
        for (FileAttribute<?> attr : attrs) {
            String name = attr.name();
            if (!posix || !("posix:permissions".equals(name) || "unix:permissions".equals(name))) {
                throw new UnsupportedOperationException("'" + name + "' not supported as initial attribute");
            }
            permissions = permissionsOf(attr.value()); // the last one counts, as in the default provider
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)};
    }

    private static Set<PosixFilePermission> permissionsOf(Object value) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (Object o : (Set<?>) value) {
            permissions.add((PosixFilePermission) o); // a wrong type fails as the default provider fails: ClassCastException
        }
        return permissions;
    }
}
