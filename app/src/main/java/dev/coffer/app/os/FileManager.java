package dev.coffer.app.os;

import java.io.IOException;
import java.net.URI;

/**
 * Shows a folder or URL in the desktop's file manager ("Reveal drive", "Reveal log file").
 *
 * <p>Not responsible for knowing what is shown.
 */
@FunctionalInterface
public interface FileManager {
    void reveal(URI target) throws IOException;
}
