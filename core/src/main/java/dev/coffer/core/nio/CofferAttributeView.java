package dev.coffer.core.nio;

import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * The basic, owner and POSIX views of a cleartext entry. Reads come from {@link AttributeReader};
 * writes (times, permissions, owner) go to the ciphertext file that carries them (spec 4).
 */
final class CofferAttributeView implements PosixFileAttributeView {
    private final CofferFileSystem fs;
    private final CofferPath path;
    private final boolean follow;
    private final String name;

    CofferAttributeView(CofferFileSystem fs, CofferPath path, boolean follow, String name) {
        this.fs = fs;
        this.path = path;
        this.follow = follow;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PosixFileAttributes readAttributes() throws IOException {
        fs.checkOpen();
        return closingAware(() -> fs.attributes.read(fs.resolver.existing(path, follow)));
    }

    @Override
    public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
        fs.checkWritable();
        closingAware(() -> {
            storeTimes(lastModifiedTime, lastAccessTime, createTime);
            return null;
        });
    }

    private void storeTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
        Located l = fs.resolver.existing(path, follow);
        Path carrier = fs.attributes.attributeCarrier(l);
        // Found as an open finds it (also after a sync client renamed the open file to this path).
        OpenFile open = l.entry() != null && l.entry().type() == dev.coffer.core.names.EntryType.FILE
                ? fs.openFiles.find(carrier) : null;
        if (open != null) {
            // a write still running behind would land after these times and overwrite them
            open.whenWritesLanded(() -> CiphertextTimes.set(carrier, lastModifiedTime, lastAccessTime, createTime));
        } else {
            CiphertextTimes.set(carrier, lastModifiedTime, lastAccessTime, createTime);
        }
    }

    @Override
    public void setPermissions(Set<PosixFilePermission> perms) throws IOException {
        fs.checkWritable();
        closingAware(() -> {
            Located l = fs.resolver.existing(path, follow);
            if (l.entry() == null || l.entry().type() != dev.coffer.core.names.EntryType.SYMLINK) {
                // symlink permissions are not stored (like Linux, where they are always 0777)
                Files.setPosixFilePermissions(fs.attributes.attributeCarrier(l), perms);
            }
            return null;
        });
    }

    @Override
    public void setGroup(GroupPrincipal group) throws IOException {
        fs.checkWritable();
        closingAware(() -> {
            Files.getFileAttributeView(fs.attributes.attributeCarrier(fs.resolver.existing(path, follow)),
                    PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setGroup(group);
            return null;
        });
    }

    @Override
    public UserPrincipal getOwner() throws IOException {
        return readAttributes().owner();
    }

    @Override
    public void setOwner(UserPrincipal owner) throws IOException {
        fs.checkWritable();
        closingAware(() -> Files.setOwner(fs.attributes.attributeCarrier(fs.resolver.existing(path, follow)), owner));
    }

    /** A step of this view that may throw. */
    @FunctionalInterface
    private interface Step<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code step}, which works without the structure lock: a failure because the file system
     * closed under it (a destroyed key, a closed file) is thrown as ClosedFileSystemException, as by
     * every call after the close, not as IllegalStateException "SIV key destroyed".
     */
    private <T> T closingAware(Step<T> step) throws IOException {
        try {
            return step.run();
        } catch (IOException | RuntimeException e) {
            fs.failIfClosed(e);
            throw e;
        }
    }

    /** Views typed as basic only, for file systems without POSIX underneath. */
    BasicFileAttributeView asBasic() {
        return new BasicFileAttributeView() {
            @Override
            public String name() {
                return "basic";
            }

            @Override
            public java.nio.file.attribute.BasicFileAttributes readAttributes() throws IOException {
                return CofferAttributeView.this.readAttributes();
            }

            @Override
            public void setTimes(FileTime m, FileTime a, FileTime c) throws IOException {
                CofferAttributeView.this.setTimes(m, a, c);
            }
        };
    }
}
