package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The contract through a mount of a plain folder: the reference behaviour of the adapter. */
class PlainFolderMountTest extends MountContract {
    @Override
    protected Path backingRoot(Path tmp) throws IOException {
        return Files.createDirectory(tmp.resolve("backing"));
    }
}
