package dev.coffer.core.nio;

import dev.coffer.core.names.Entry;
import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A folder's cleartext children, decoded once when the stream opens (the listing is a snapshot).
 * Each child path carries the entry the listing found, so stats of the children cost no name encryption.
 */
final class CofferDirectoryStream implements DirectoryStream<Path> {
    private final List<Path> children;
    private boolean iterated;
    private boolean closed;

    CofferDirectoryStream(CofferPath dir, List<Entry> entries, Filter<? super Path> filter) throws IOException {
        List<Path> accepted = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            Path child = dir.listedChild(entry);
            if (filter == null || filter.accept(child)) {
                accepted.add(child);
            }
        }
        this.children = accepted;
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
        if (iterated) {
            throw new IllegalStateException("iterator() already called");
        }
        iterated = true;
        Iterator<Path> it = children.iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !closed && it.hasNext();
            }

            @Override
            public Path next() {
                if (closed) {
                    throw new DirectoryIteratorException(new IOException("stream closed"));
                }
                return it.next();
            }
        };
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
