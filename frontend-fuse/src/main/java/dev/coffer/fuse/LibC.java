package dev.coffer.fuse;

/**
 * The two C library calls a mount needs: whose files these are. Public only because jnr-ffi
 * implements it; not an API of this module.
 */
public interface LibC {
    int getuid();

    int getgid();
}
