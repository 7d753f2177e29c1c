package dev.coffer.webdav;

import io.milton.http.Auth;
import io.milton.http.Range;
import io.milton.resource.GetableResource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLConnection;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

/**
 * A file as Milton sees it: its length and content type for PROPFIND, and its content (GET itself
 * is served by {@link ReadMethods}; this is the same streaming copy for Milton's own uses).
 *
 * <p>Not responsible for writing the file.
 */
final class FileResource extends PathResource implements GetableResource {

    FileResource(DavTree tree, DavPath path, BasicFileAttributes attrs, NameForm form, boolean mayHaveDeadProperties) {
        super(tree, path, attrs, form, mayHaveDeadProperties);
    }

    @Override
    public void sendContent(OutputStream out, Range range, Map<String, String> params, String contentType) throws IOException {
        long start = range == null || range.getStart() == null ? 0 : range.getStart();
        long end = range == null || range.getFinish() == null ? attrs.size() - 1 : range.getFinish();
        try (FileChannel ch = FileChannel.open(tree.file(path), StandardOpenOption.READ)) {
            ReadAhead.copySequential(ch, start, end - start + 1, out);
        }
    }

    @Override
    public Long getMaxAgeSeconds(Auth auth) {
        return null;
    }

    @Override
    public String getContentType(String accepts) {
        return contentType(path.name());
    }

    static String contentType(String name) {
        String t = URLConnection.guessContentTypeFromName(name);
        return t == null ? "application/octet-stream" : t;
    }

    @Override
    public Long getContentLength() {
        return attrs.size();
    }

}
