package dev.coffer.app.cli;

import dev.coffer.app.LogConfigurator;
import dev.coffer.app.text.Printable;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.ConflictCopy;
import java.io.PrintStream;

/**
 * For {@code coffer mount} and {@code coffer serve}: one line on stderr (the terminal of the
 * foreground command, not a log file) for each conflict copy core makes of a file a program had open
 * while another device replaced or deleted it, naming the file and where its content is, or that it
 * could not be kept. Names are printed escaped ({@link Printable}): they come from the vault. This
 * line replaces core's nameless WARN for the same copy on the terminal: that WARN is marked
 * {@link ConflictCopy#TOLD_BY_NAME} because this listener is told, and kept off stderr, so the person
 * reads one line per copy. A file system nobody listens to still logs it there.
 *
 * <p>Not responsible for making the copy (core).
 */
final class ConflictCopyLines {
    private ConflictCopyLines() {}

    /** Prints a line to {@code err} for each conflict copy {@code fs} makes from now on. */
    static void printTo(CofferFileSystem fs, PrintStream err) {
        LogConfigurator.keepOffTerminal(ConflictCopy.TOLD_BY_NAME);
        fs.onConflictCopies(copy -> {
            err.println(line(copy));
            err.flush();
        });
    }

    static String line(ConflictCopy copy) {
        String changed = "coffer: WARN \"" + Printable.escape(copy.original())
                + "\" was changed here while another device replaced or deleted it; ";
        if (copy.copy().isEmpty()) {
            return changed + "what was written here could not be kept (a full disk, or the file damaged)";
        }
        String at = "\"" + Printable.escape(copy.copy().get()) + "\"";
        return copy.complete()
                ? changed + "what was written here is kept as " + at
                : changed + "only part of what was written here could be kept, as " + at + "; the rest is lost";
    }
}
