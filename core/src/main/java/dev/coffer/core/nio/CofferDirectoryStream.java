package dev.coffer.core.nio;

import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** A folder's cleartext children, decoded once when the stream opens (the listing is a snapshot). */
final class CofferDirectoryStream implements DirectoryStream<Path> {
    private final List<Path> children;
    private boolean iterated;
    private boolean closed;

    CofferDirectoryStream(CofferPath dir, List<String> names, Filter<? super Path> filter) throws IOException {
        List<Path> accepted = new ArrayList<>(names.size());
        for (String name : names) {
            Path child = dir.resolve(dir.getFileSystem().getPath(name));
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
