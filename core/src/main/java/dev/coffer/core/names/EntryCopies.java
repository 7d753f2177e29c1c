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
 * rules 1 to 3 of spec 6, in the UTF-8 byte order of their on-disk names. Foreign names, copies
 * whose name {@code N} is unsafe, and incomplete copies (no payload, or several) are left as they are.
 * Writable: renames and removes on disk through {@link EntryMoves}; read-only: only records in the
 * {@link ConflictState} which name each copy would get.
 */
final class EntryCopies {
    private static final Logger LOG = LoggerFactory.getLogger(EntryCopies.class);

    private final PathMapper mapper;
    private final ConflictRecognition recognition;
    private final PayloadComparison comparison;
    private final boolean readOnly;

    EntryCopies(PathMapper mapper, ConflictRecognition recognition, PayloadComparison comparison, boolean readOnly) {
        this.mapper = mapper;
        this.recognition = recognition;
        this.comparison = comparison;
        this.readOnly = readOnly;
    }

    /** A recognised, complete copy on disk. */
    private record Copy(Path path, boolean shortened, EntryType type, ConflictRecognition.Copy recognised) {
        Path payload() {
            return new Entry(null, recognised.cleartextName(), type, path, shortened).payload();
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
        if (type == null) {
            LOG.warn("Skipped an incomplete conflict copy: {}", path);
            return null;
        }
        return new Copy(path, shortened, type, recognised);
    }

    private void resolve(Copy copy, ConflictState state) throws IOException {
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
