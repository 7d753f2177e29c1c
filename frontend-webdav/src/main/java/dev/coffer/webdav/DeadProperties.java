package dev.coffer.webdav;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import javax.xml.namespace.QName;

/**
 * Dead properties (PROPPATCH) stored with the files themselves, so they survive restarts and move
 * with the vault: a hidden sidecar file beside each resource ({@code .coffer-dav-props.NAME} in the
 * same folder; {@code .coffer-dav-props} inside the root for the root), in {@link Properties} text
 * form keyed by {@code {namespace}name}. Sidecars work on any NIO file system (a plain folder and the
 * coffer vault alike, where user-defined attributes are not available); inside a vault they are
 * encrypted like every other file. Writes go to a temp file, are forced to disk and renamed over
 * the old sidecar atomically. Sidecar names are never listed and cannot be addressed ({@link DavPath}).
 *
 * <p>Not responsible for which properties are live (Milton's property sources are) or for locks.
 */
final class DeadProperties {
    static final String SIDECAR_PREFIX = ".coffer-dav-props";
    /** Every name the server keeps for itself (sidecars, uploads in progress) starts with this. */
    static final String RESERVED_PREFIX = ".coffer-dav-";

    private final Path root;
    private final Object mutex = new Object();

    DeadProperties(Path root) {
        this.root = root;
    }

    static boolean isSidecarName(String name) {
        return name.startsWith(RESERVED_PREFIX);
    }

    Path sidecarOf(DavPath p) {
        return p.isRoot() ? root.resolve(SIDECAR_PREFIX) : p.parent().resolveIn(root).resolve(SIDECAR_PREFIX + "." + p.name());
    }

    Map<QName, String> read(DavPath p) throws IOException {
        synchronized (mutex) {
            return load(sidecarOf(p));
        }
    }

    void set(DavPath p, QName name, String value) throws IOException {
        synchronized (mutex) {
            Map<QName, String> all = load(sidecarOf(p));
            all.put(name, value);
            store(sidecarOf(p), all);
        }
    }

    void remove(DavPath p, QName name) throws IOException {
        synchronized (mutex) {
            Map<QName, String> all = load(sidecarOf(p));
            if (all.remove(name) != null) {
                store(sidecarOf(p), all);
            }
        }
    }

    /**
     * Reads the properties of {@code p}, lets {@code change} edit them and writes them back, as one
     * step: two PROPPATCHes of one resource at once must not lose each other's properties.
     */
    void update(DavPath p, java.util.function.Consumer<Map<QName, String>> change) throws IOException {
        synchronized (mutex) {
            Map<QName, String> props = read(p);
            change.accept(props);
            replace(p, props);
        }
    }

    /** Replaces all dead properties of {@code p} at once (PROPPATCH is all or nothing). */
    void replace(DavPath p, Map<QName, String> props) throws IOException {
        synchronized (mutex) {
            store(sidecarOf(p), props);
        }
    }

    /** After a resource moved (or was renamed over another): its properties go with it, the target's old ones go. */
    void moved(DavPath from, DavPath to) throws IOException {
        synchronized (mutex) {
            Path src = sidecarOf(from);
            Path dst = sidecarOf(to);
            if (Files.exists(src)) {
                Files.move(src, dst, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                deleteIfAny(dst);
            }
        }
    }

    /**
     * Before a resource moves to a free name, or for its copy: its sidecar's bytes, not parsed, under
     * the new name (a damaged sidecar must not block the move or copy; its text goes along as it is).
     * None: any sidecar the new name has goes. False, with nothing changed, if the sidecar is there
     * but cannot be read (a ciphertext failing authentication): a move then renames it along, a copy
     * goes without it.
     */
    boolean copiedBytes(DavPath from, DavPath to) throws IOException {
        synchronized (mutex) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(sidecarOf(from));
            } catch (NoSuchFileException e) {
                clearStale(to);
                return true;
            } catch (IOException | RuntimeException e) {
                if (isNameTooLong(e)) { // it cannot have one
                    clearStale(to);
                    return true;
                }
                return false;
            }
            writeAtomically(sidecarOf(to), bytes);
            return true;
        }
    }

    /**
     * Before a resource is made at {@code p}, where nothing is (called under the commit lock, so
     * nothing can appear there meanwhile): drops a sidecar an earlier resource of that name left when
     * the server was killed between its DELETE or MOVE and its sidecar's removal, so the new resource
     * does not inherit its properties. Only a name without a resource loses a sidecar here.
     */
    void clearStale(DavPath p) throws IOException {
        deleted(p);
    }

    /**
     * After a resource was deleted. A name within 18 bytes of the 255-byte limit cannot have a
     * sidecar (its sidecar's name is too long to be made): the file system's refusal means none.
     */
    void deleted(DavPath p) throws IOException {
        synchronized (mutex) {
            deleteIfAny(sidecarOf(p));
        }
    }

    private static void deleteIfAny(Path sidecar) throws IOException {
        try {
            Files.deleteIfExists(sidecar);
        } catch (FileSystemException e) {
            if (!isNameTooLong(e)) {
                throw e;
            }
        }
    }

    /** ENAMETOOLONG's "File name too long" (a plain folder), or the vault's "name too long". */
    private static boolean isNameTooLong(Exception e) {
        return e instanceof FileSystemException f && f.getReason() != null
                && f.getReason().toLowerCase(java.util.Locale.ROOT).contains("name too long");
    }

    private static Map<QName, String> load(Path sidecar) throws IOException {
        Map<QName, String> out = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(sidecar);
        } catch (NoSuchFileException e) {
            return out;
        } catch (FileSystemException e) {
            if (isNameTooLong(e)) {
                return out; // a name that cannot have a sidecar has none
            }
            throw e;
        }
        Properties p = new Properties();
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            p.load(in);
        }
        for (String key : p.stringPropertyNames()) {
            out.put(QName.valueOf(key), p.getProperty(key));
        }
        return out;
    }

    private static void store(Path sidecar, Map<QName, String> props) throws IOException {
        if (props.isEmpty()) {
            deleteIfAny(sidecar);
            return;
        }
        Properties p = new Properties();
        props.forEach((k, v) -> p.setProperty(k.toString(), v));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.store(bytes, null);
        writeAtomically(sidecar, bytes.toByteArray());
    }

    private static void writeAtomically(Path sidecar, byte[] content) throws IOException {
        Path tmp = sidecar.resolveSibling(SIDECAR_PREFIX + ".tmp-" + UUID.randomUUID());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.move(tmp, sidecar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
