package dev.coffer.core.nio;

import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The string-keyed attribute API ({@code "basic:size"}, {@code "posix:*"}) over {@link CofferAttributes}. */
final class AttributeMaps {
    private static final Set<String> BASIC = Set.of("lastModifiedTime", "lastAccessTime", "creationTime", "size",
            "isRegularFile", "isDirectory", "isSymbolicLink", "isOther", "fileKey");
    private static final Set<String> POSIX = Set.of("owner", "group", "permissions");

    /** The names a lookup answers alone: what the entry is, known from its payload (spec 4). */
    private static final Set<String> TYPE = Set.of("isRegularFile", "isDirectory", "isSymbolicLink", "isOther");

    private AttributeMaps() {}

    /**
     * True if only the entry's type is asked ({@code "basic:isDirectory"}, as the FUSE frontend's rmdir
     * asks before it deletes): the lookup's answer, with no stat of the storage folder or payload.
     */
    static boolean typeOnly(String view, String names, boolean posix) {
        if (!view.equals("basic") && !(posix && view.equals("posix"))) {
            return false;
        }
        for (String n : names.split(",")) {
            if (!TYPE.contains(n)) {
                return false;
            }
        }
        return true;
    }

    /** The asked type names of an entry of type {@code kind}. */
    static Map<String, Object> types(CofferAttributes.Kind kind, String names) {
        Map<String, Object> picked = new HashMap<>();
        for (String n : names.split(",")) {
            picked.put(n, switch (n) {
                case "isRegularFile" -> kind == CofferAttributes.Kind.FILE;
                case "isDirectory" -> kind == CofferAttributes.Kind.DIRECTORY;
                case "isSymbolicLink" -> kind == CofferAttributes.Kind.SYMLINK;
                default -> false; // isOther: the vault stores no other kind
            });
        }
        return picked;
    }

    /** {@code view:names} split into the view and the requested names. */
    static String[] split(String attributes) {
        int colon = attributes.indexOf(':');
        return colon < 0 ? new String[] {"basic", attributes} : new String[] {attributes.substring(0, colon), attributes.substring(colon + 1)};
    }

    static Map<String, Object> read(PosixFileAttributes a, String view, String names, boolean posix) {
        if (!view.equals("basic") && !(posix && (view.equals("posix") || view.equals("owner")))) {
            throw new UnsupportedOperationException("view '" + view + "' not supported");
        }
        Map<String, Object> all = new HashMap<>();
        if (!view.equals("owner")) {
            all.put("lastModifiedTime", a.lastModifiedTime());
            all.put("lastAccessTime", a.lastAccessTime());
            all.put("creationTime", a.creationTime());
            all.put("size", a.size());
            all.put("isRegularFile", a.isRegularFile());
            all.put("isDirectory", a.isDirectory());
            all.put("isSymbolicLink", a.isSymbolicLink());
            all.put("isOther", a.isOther());
            all.put("fileKey", a.fileKey());
        }
        if (view.equals("posix") || view.equals("owner")) {
            all.put("owner", a.owner());
        }
        if (view.equals("posix")) {
            all.put("group", a.group());
            all.put("permissions", a.permissions());
        }
        if (names.equals("*")) {
            return all;
        }
        Map<String, Object> picked = new HashMap<>();
        for (String n : names.split(",")) {
            if (n.equals("*")) {
                picked.putAll(all);
            } else if (all.containsKey(n)) {
                picked.put(n, all.get(n));
            } else if (!BASIC.contains(n) && !POSIX.contains(n)) {
                throw new IllegalArgumentException("'" + n + "' not recognised");
            }
        }
        return picked;
    }

    static FileTime time(Object value) {
        return (FileTime) value;
    }
}
