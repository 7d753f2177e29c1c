package dev.coffer.core.nio;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;

/** The vault's store: space figures come from the store that holds the ciphertext. */
final class CofferFileStore extends FileStore {
    private final FileStore ciphertextStore;
    private final boolean readOnly;
    private final boolean posix;

    CofferFileStore(FileStore ciphertextStore, boolean readOnly, boolean posix) {
        this.ciphertextStore = ciphertextStore;
        this.readOnly = readOnly;
        this.posix = posix;
    }

    @Override
    public String name() {
        return "coffer";
    }

    @Override
    public String type() {
        return "coffer";
    }

    @Override
    public boolean isReadOnly() {
        return readOnly || ciphertextStore.isReadOnly();
    }

    @Override
    public long getTotalSpace() throws IOException {
        return ciphertextStore.getTotalSpace();
    }

    @Override
    public long getUsableSpace() throws IOException {
        return ciphertextStore.getUsableSpace();
    }

    @Override
    public long getUnallocatedSpace() throws IOException {
        return ciphertextStore.getUnallocatedSpace();
    }

    @Override
    public long getBlockSize() throws IOException {
        return ciphertextStore.getBlockSize();
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        return type == BasicFileAttributeView.class
                || (posix && (type == PosixFileAttributeView.class || type == FileOwnerAttributeView.class));
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return name.equals("basic") || (posix && (name.equals("posix") || name.equals("owner")));
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    @Override
    public Object getAttribute(String attribute) throws IOException {
        throw new UnsupportedOperationException("no file store attribute " + attribute);
    }
}
