package dev.coffer.core.health;

import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.DirectoryLister;
import dev.coffer.core.names.EntryType;
import dev.coffer.core.names.LongNames;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every folder pointer on disk, found without decrypting a name: each {@code dir.c9r} (and each
 * decorated copy such as {@code dir (1).c9r}) in every entry of every storage folder under {@code d/},
 * whether the walk could follow it or not (an undecryptable name, an orphan without {@code dirid.c9r}).
 * Tells orphan handling whether anything at all points to a storage folder, so that no folder
 * ever gets a second pointer from {@code /LOST+FOUND} and no folder something points to is removed.
 *
 * <p>Not responsible for judging the pointers (the walk does) or reporting what it cannot read
 * (its caller's {@link ErrorSink} does).
 */
final class PointerIndex {
    static final Pattern PREFIX = Pattern.compile("[A-Z2-7]{2}");
    static final Pattern REST = Pattern.compile("[A-Z2-7]{30}");

    /** Told about every item that could not be read; may rethrow to stop the scan. */
    @FunctionalInterface
    interface ErrorSink {
        void unreadable(Path p, IOException e) throws IOException;
    }

    private final VaultKeys keys;
    private final Map<Path, List<Path>> referrers = new HashMap<>();

    private PointerIndex(VaultKeys keys) {
        this.keys = keys;
    }

    /** Scans every storage folder of the vault. */
    static PointerIndex scan(VaultKeys keys, ErrorSink errors) throws IOException {
        PointerIndex index = new PointerIndex(keys);
        for (Path storage : storageFolders(keys, errors)) {
            try {
                index.scanFolder(storage, errors);
            } catch (IOException e) {
                errors.unreadable(storage, e);
            }
        }
        return index;
    }

    /** Every storage folder {@code d/XX/Y...Y}, without judging anything else under {@code d/}. */
    static List<Path> storageFolders(VaultKeys keys, ErrorSink errors) throws IOException {
        List<Path> result = new ArrayList<>();
        if (!Files.isDirectory(keys.dataDir)) {
            return result;
        }
        for (String prefix : DirectoryLister.sortedNames(keys.dataDir)) {
            Path p = keys.dataDir.resolve(prefix);
            if (!PREFIX.matcher(prefix).matches() || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                for (String rest : DirectoryLister.sortedNames(p)) {
                    Path s = p.resolve(rest);
                    if (REST.matcher(rest).matches() && Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS)) {
                        result.add(s);
                    }
                }
            } catch (IOException e) {
                errors.unreadable(p, e);
            }
        }
        return result;
    }

    private void scanFolder(Path storage, ErrorSink errors) throws IOException {
        for (String name : DirectoryLister.sortedNames(storage)) {
            Path entry = storage.resolve(name);
            if (name.startsWith(AtomicFiles.TEMP_PREFIX) && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                // An entry a move set aside: its folder's storage is left alone until repair puts it back or removes it.
                scanFolder(entry, errors);
                continue;
            }
            if (!(name.endsWith(LongNames.C9R) || name.endsWith(LongNames.C9S)) || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                for (String inner : DirectoryLister.sortedNames(entry)) {
                    Path file = entry.resolve(inner);
                    if (isPointerName(inner) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                        try {
                            String id = DirIdFiles.read(file);
                            if (id != null) {
                                add(keys.mapper.storageOf(id), file);
                            }
                        } catch (IOException e) {
                            errors.unreadable(file, e);
                        }
                    }
                }
            } catch (IOException e) {
                errors.unreadable(entry, e);
            }
        }
    }

    private static boolean isPointerName(String inner) {
        return inner.equals(EntryType.DIRECTORY.payloadName())
                || inner.startsWith("dir") && inner.endsWith(LongNames.C9R) && !inner.startsWith("dirid");
    }

    /** Records a pointer written after the scan (an adoption). */
    void add(Path targetStorage, Path pointerFile) {
        referrers.computeIfAbsent(targetStorage.toAbsolutePath().normalize(), k -> new ArrayList<>()).add(pointerFile);
    }

    /** The pointer files that hold the ID of {@code storage}, except those inside {@code storage} itself. */
    List<Path> referrersOf(Path storage) {
        Path key = storage.toAbsolutePath().normalize();
        return referrers.getOrDefault(key, List.of()).stream()
                .filter(p -> !storageOfPointer(p).equals(key))
                .toList();
    }

    /** The storage folder a pointer file is in ({@code storage/entry/dir.c9r}). */
    static Path storageOfPointer(Path pointerFile) {
        return pointerFile.getParent().getParent().toAbsolutePath().normalize();
    }
}
