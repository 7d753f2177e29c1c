package dev.coffer.core.names;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves conflict copies of whole entries ({@code X (1).c9r}, {@code <s> (1).c9s/}) in one folder,
 * rules 1 to 3 of spec 6, in the UTF-8 byte order of their on-disk names, each after the decorated
 * payloads in its own folder ({@link InternalCopies}). Foreign names, copies whose name {@code N} is
 * unsafe, and incomplete copies (several payloads, or none and no decorated payload) are left as they are.
 * Writable: renames and removes on disk through {@link EntryMoves}; read-only: only records in the
 * {@link ConflictState} which name each copy would get.
 */
final class EntryCopies {
    private static final Logger LOG = LoggerFactory.getLogger(EntryCopies.class);

    private final PathMapper mapper;
    private final ConflictRecognition recognition;
    private final PayloadComparison comparison;
    private final InternalCopies internalCopies;
    private final boolean readOnly;

    EntryCopies(PathMapper mapper, ConflictRecognition recognition, PayloadComparison comparison,
                InternalCopies internalCopies, boolean readOnly) {
        this.mapper = mapper;
        this.recognition = recognition;
        this.comparison = comparison;
        this.internalCopies = internalCopies;
        this.readOnly = readOnly;
    }

    /**
     * A recognised copy on disk: complete ({@code type} set), or a folder without a payload that
     * holds decorated payloads ({@code type} null). {@code decorated}: the decorated copies of
     * internal files in its folder. {@code settled}: nothing in its folder changed within {@link
     * SyncGrace#GRACE} (looked at before anything was resolved in it).
     */
    private record Copy(Path path, boolean shortened, EntryType type, ConflictRecognition.Copy recognised,
                        List<Path> decorated, boolean settled) {
        Path payload() {
            return new Entry(null, recognised.cleartextName(), type, path, shortened).payload();
        }

        InternalCopies.Owner owner() {
            return new InternalCopies.Owner(recognised.cleartextName(), path, type, type == null ? null : payload());
        }
    }

    void resolve(List<String> candidates, ConflictState state) {
        List<String> sorted = new ArrayList<>(candidates);
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        for (String fileName : sorted) {
            Path path = state.dir().storage().resolve(fileName);
            try {
                Copy copy = recognise(fileName, path, state.dir());
                if (copy != null) {
                    resolve(copy, state);
                }
            } catch (IOException e) {
                LOG.warn("Could not resolve the conflict copy {}: {}", path, e.toString());
            }
        }
    }

    private Copy recognise(String fileName, Path path, CiphertextDirectory dir) throws IOException {
        boolean shortened = fileName.endsWith(LongNames.C9S);
        String nameC9s = shortened ? DirectoryLister.readNameFile(path) : null;
        ConflictRecognition.Copy recognised = recognition.recognize(fileName, nameC9s, dir.dirId());
        if (recognised == null) {
            LOG.debug("Skipped a foreign file: {}", path);
            return null;
        }
        if (Names.isUnsafe(recognised.cleartextName())) {
            LOG.warn("Skipped a conflict copy of an entry with an unsafe name: {}", path);
            return null;
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        EntryType type = PathMapper.typeOf(path, shortened, attrs);
        List<Path> decorated = attrs.isDirectory()
                ? DirectoryLister.decoratedCopies(path, DirectoryLister.sortedNames(path), shortened) : List.of();
        if (type == null && decorated.stream().noneMatch(p -> p.getFileName().toString().endsWith(LongNames.C9R))) {
            LOG.warn("Skipped an incomplete conflict copy: {}", path);
            return null;
        }
        boolean settled = type == null && !readOnly && !SyncGrace.changedRecently(path, attrs);
        return new Copy(path, shortened, type, recognised, decorated, settled);
    }

    private void resolve(Copy copy, ConflictState state) throws IOException {
        // The copy's own decorated payloads first, as spec 6 resolves them in any entry folder (N is
        // the copy's name): moving or removing the copy would otherwise leave them in a folder that
        // no listing shows.
        for (Path decorated : copy.decorated()) {
            internalCopies.resolve(copy.owner(), decorated, state);
        }
        if (copy.type() == null) {
            // A payload-less copy folder: left by older versions, or one whose payload a sync has not
            // delivered yet. Its name.c9s goes only once it has not changed for a day: without it the
            // payload arriving later would sit in a folder no listing can name.
            if (copy.settled() && EntryMoves.removeEmptied(copy.path(), copy.shortened())) {
                state.markChanged();
            }
            return;
        }
        String name = copy.recognised().cleartextName();
        Entry original = state.entry(name);
        if (original == null && !state.isTaken(name)) {
            if (place(copy, mapper.slot(state.dir(), name), state)) {
                return; // rule 1
            }
        } else if (original != null && original.type() == copy.type()
                && comparison.identical(copy.type(), copy.payload(), original.payload())) {
            if (!readOnly) {
                EntryMoves.remove(copy.path(), copy.shortened(), copy.type());
                state.markChanged();
            }
            return; // rule 2
        }
        for (int k = 1; ; k++) { // rule 3
            String candidate = ConflictNames.conflictName(name, copy.recognised().decoration(), k);
            if (!state.isTaken(candidate) && place(copy, mapper.slot(state.dir(), candidate), state)) {
                return;
            }
        }
    }

    /** Gives {@code copy} the name of {@code target}; false if the target's on-disk name is occupied. */
    private boolean place(Copy copy, Slot target, ConflictState state) throws IOException {
        if (readOnly) {
            if (ConflictState.occupied(target)) {
                return false;
            }
            state.give(target, new Entry(state.dir(), target.name(), copy.type(), copy.path(), copy.shortened()));
            return true;
        }
        if (!EntryMoves.move(copy.path(), copy.shortened(), copy.type(), target)) {
            return false;
        }
        state.give(target, new Entry(state.dir(), target.name(), copy.type(), target.entryPath(), target.shortened()));
        state.markChanged();
        return true;
    }
}
