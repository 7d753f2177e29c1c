package dev.coffer.core.nio;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Attributes of a cleartext entry: type and cleartext size from the vault, times, owner and
 * permissions from the ciphertext file (spec 4, "Attributes"). Without POSIX underneath, files
 * report 0644 and folders 0755.
 */
record CofferAttributes(Kind kind, long size, BasicFileAttributes ciphertext, PosixFileAttributes posix)
        implements PosixFileAttributes {

    enum Kind { FILE, DIRECTORY, SYMLINK }

    private static final Set<PosixFilePermission> FILE_DEFAULT = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> DIR_DEFAULT = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> LINK = PosixFilePermissions.fromString("rwxrwxrwx");

    @Override
    public FileTime lastModifiedTime() {
        return ciphertext.lastModifiedTime();
    }

    @Override
    public FileTime lastAccessTime() {
        return ciphertext.lastAccessTime();
    }

    @Override
    public FileTime creationTime() {
        return ciphertext.creationTime();
    }

    @Override
    public boolean isRegularFile() {
        return kind == Kind.FILE;
    }

    @Override
    public boolean isDirectory() {
        return kind == Kind.DIRECTORY;
    }

    @Override
    public boolean isSymbolicLink() {
        return kind == Kind.SYMLINK;
    }

    @Override
    public boolean isOther() {
        return false;
    }

    @Override
    public Object fileKey() {
        return ciphertext.fileKey();
    }

    @Override
    public UserPrincipal owner() {
        return posix == null ? null : posix.owner();
    }

    @Override
    public GroupPrincipal group() {
        return posix == null ? null : posix.group();
    }

    @Override
    public Set<PosixFilePermission> permissions() {
        if (kind == Kind.SYMLINK) {
            return LINK;
        }
        if (posix != null) {
            return posix.permissions();
        }
        return kind == Kind.DIRECTORY ? DIR_DEFAULT : FILE_DEFAULT;
    }
}
