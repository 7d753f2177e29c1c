package dev.coffer.app.os;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FileManager} on Linux desktops: runs {@code xdg-open TARGET} (from xdg-utils) detached,
 * with its output discarded. A missing xdg-open is an {@link IOException} saying what to install.
 *
 * <p>Not responsible for waiting for the file manager (it runs on its own).
 */
public final class XdgOpen implements FileManager {
    private static final Logger LOG = LoggerFactory.getLogger(XdgOpen.class);

    /** The command line that reveals {@code target}. */
    static List<String> command(URI target) {
        return List.of("xdg-open", "file".equals(target.getScheme()) ? java.nio.file.Path.of(target).toString()
                : target.toString());
    }

    @Override
    public void reveal(URI target) throws IOException {
        try {
            new ProcessBuilder(command(target))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            LOG.debug("xdg-open failed: {}", e.getMessage());
            throw new IOException("xdg-open could not be started: install xdg-utils to open drives in the file manager", e);
        }
    }
}
