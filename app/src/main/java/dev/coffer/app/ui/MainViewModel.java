package dev.coffer.app.ui;

import dev.coffer.app.os.FileManager;
import dev.coffer.app.text.Printable;
import dev.coffer.app.vaults.ManagedVault;
import dev.coffer.app.vaults.Problem;
import dev.coffer.app.vaults.VaultException;
import dev.coffer.app.vaults.VaultService;
import dev.coffer.app.vaults.VaultState;
import dev.coffer.core.nio.ConflictCopy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The main window's state and actions: the vault list (kept in step with the {@link VaultService},
 * whose events arrive on any thread and are moved to the UI thread), the selection, add existing
 * (folder or vault.coffer, also by drag and drop), remove from the list, reveal, lock (offering a
 * forced lock when files are open) and lock all (naming the vaults that stayed unlocked and offering
 * each busy one the same forced lock). Uses javafx.beans observables only: no scene
 * graph, no FX thread needed, so tests drive it directly.
 *
 * <p>Not responsible for dialogs (the views open them) or for unlocking ({@link UnlockViewModel}).
 */
public final class MainViewModel {
    private final VaultService service;
    private final Background background;
    private final Messages messages;
    private final FileManager fileManager;
    private final ObservableList<ManagedVault> vaults = FXCollections.observableArrayList();
    private final ObjectProperty<ManagedVault> selected = new SimpleObjectProperty<>();
    private final IntegerProperty revision = new SimpleIntegerProperty();
    private final StringProperty notice = new SimpleStringProperty("");
    private final StringProperty conflictNotice = new SimpleStringProperty("");
    /** Conflict copies told since the person last dismissed {@link #conflictNotice}. */
    private int conflictCopies;
    private final ObjectProperty<ManagedVault> forceLockOffer = new SimpleObjectProperty<>();
    private final BooleanProperty busy = new SimpleBooleanProperty();
    /** Busy vaults of the last lock all still to be offered a forced lock, one after another. */
    private final Deque<ManagedVault> forceLockQueue = new ArrayDeque<>();

    public MainViewModel(VaultService service, Background background, Messages messages, FileManager fileManager,
            Executor uiThread) {
        this.service = service;
        this.background = background;
        this.messages = messages;
        this.fileManager = fileManager;
        service.addListener(() -> uiThread.execute(this::refresh));
        // Told on a FUSE or WebDAV worker, or the thread locking the vault: shown on the UI thread.
        service.addConflictCopyListener((vault, copy) -> uiThread.execute(() -> conflictCopied(vault, copy)));
        refresh();
    }

    public ObservableList<ManagedVault> vaults() {
        return vaults;
    }

    public ObjectProperty<ManagedVault> selected() {
        return selected;
    }

    /** Counts changes of any vault's state or settings, so views know to redraw. */
    public IntegerProperty revision() {
        return revision;
    }

    /** A message for the person (a failure of the last action), empty if none. */
    public StringProperty notice() {
        return notice;
    }

    /**
     * Where the person's writes went when a program had a file open in a vault while another device
     * replaced or deleted it: the latest such conflict copy (or the failure to make one), and how many
     * more there were, until {@link #dismissConflictNotice}. Empty if none. Kept apart from
     * {@link #notice}, which the next action clears: the lock that made the copy would clear it.
     */
    public StringProperty conflictNotice() {
        return conflictNotice;
    }

    /** The person read the conflict notice. */
    public void dismissConflictNotice() {
        conflictCopies = 0;
        conflictNotice.set("");
    }

    private void conflictCopied(ManagedVault v, ConflictCopy copy) {
        conflictCopies++;
        String latest = conflictText(v, copy);
        conflictNotice.set(conflictCopies == 1 ? latest : latest + "\n" + messages.get("conflict.more", conflictCopies - 1));
    }

    /** The sentence for one conflict copy: the file's name and folder, and where its content is (or that it is lost). */
    String conflictText(ManagedVault v, ConflictCopy copy) {
        String vault = shown(v.settings().name());
        String name = shown(nameOf(copy.original()));
        String folder = shown(folderOf(copy.original()));
        if (copy.copy().isEmpty()) {
            return messages.get("conflict.notKept", vault, name, folder);
        }
        String at = copy.copy().get();
        return messages.get(copy.complete() ? "conflict.kept" : "conflict.keptInPart", vault, name, folder,
                shown(nameOf(at)), shown(folderOf(at)));
    }

    /** Longest name or folder shown whole in the banner; a longer one keeps its start and end. */
    static final int SHOWN_MAX = 120;

    /**
     * A name or folder as the banner shows it: control, line-breaking and bidirectional characters
     * made visible (a name must not add lines to the notice or reorder it), a very long one cut in
     * the middle (a folder path can be 4,000 characters, which pushed the banner's button out of the window).
     */
    static String shown(String s) {
        String visible = Printable.escape(s);
        if (visible.length() <= SHOWN_MAX) {
            return visible;
        }
        int head = SHOWN_MAX / 2 - 1;
        int tail = SHOWN_MAX - head - 1;
        return visible.substring(0, head) + "\u2026" + visible.substring(visible.length() - tail);
    }

    private static String nameOf(String vaultPath) {
        return vaultPath.substring(vaultPath.lastIndexOf('/') + 1);
    }

    /** A vault path's folder as the person reads it: {@code /docs}, or the vault's top folder. */
    private String folderOf(String vaultPath) {
        int slash = vaultPath.lastIndexOf('/');
        return slash <= 0 ? messages.get("conflict.topFolder") : vaultPath.substring(0, slash);
    }

    /** Set when locking found open files: the view asks whether to force, then calls {@link #forceLock}. */
    public ObjectProperty<ManagedVault> forceLockOffer() {
        return forceLockOffer;
    }

    public BooleanProperty busy() {
        return busy;
    }

    public Messages messages() {
        return messages;
    }

    /** Brings the list in step with the service, keeping the selection (the vault objects are stable). */
    public void refresh() {
        List<ManagedVault> now = service.vaults();
        if (!vaults.equals(now)) {
            vaults.setAll(now);
        }
        if (selected.get() != null && !now.contains(selected.get())) {
            selected.set(null);
        }
        if (selected.get() == null && !now.isEmpty()) {
            selected.set(now.get(0));
        }
        revision.set(revision.get() + 1);
    }

    /** Adds a vault by its folder or vault.coffer and selects it; a problem becomes the notice. */
    public ManagedVault addExisting(Path folderOrConfig) {
        try {
            ManagedVault v = service.add(folderOrConfig);
            notice.set("");
            refresh();
            selected.set(v);
            return v;
        } catch (IOException e) {
            notice.set(messages.problem(e));
            return null;
        }
    }

    /** Drag and drop: adds every dropped folder or vault.coffer that is a vault; true if any was. */
    public boolean addDropped(List<Path> dropped) {
        boolean any = false;
        for (Path p : dropped) {
            any |= addExisting(p) != null;
        }
        return any;
    }

    /** Removes the selected vault from the list (its files stay). */
    public void removeSelected() {
        ManagedVault v = selected.get();
        if (v == null) {
            return;
        }
        try {
            service.remove(v);
            notice.set("");
        } catch (IOException | IllegalStateException e) {
            notice.set(messages.get("main.removeUnlocked"));
        }
    }

    public void revealSelected() {
        ManagedVault v = selected.get();
        if (v == null || v.drive().isEmpty()) {
            return;
        }
        try {
            fileManager.reveal(v.drive().get().revealTarget());
        } catch (IOException e) {
            notice.set(e.getMessage());
        }
    }

    public void lockSelected() {
        lock(selected.get(), false);
    }

    /**
     * The person agreed to lock {@code v} although files are open. Named, not taken from the offer:
     * while the question was open the offer may have moved on to another vault (the tray's lock),
     * which nobody agreed to force.
     */
    public void forceLock(ManagedVault v) {
        answered(v);
        lock(v, true);
        offerNextForceLock();
    }

    public void declineForceLock(ManagedVault v) {
        answered(v);
        offerNextForceLock();
    }

    private void answered(ManagedVault v) {
        if (forceLockOffer.get() == v) {
            forceLockOffer.set(null);
        }
        forceLockQueue.remove(v); // asked once, even if a second lock all queued it again
    }

    private void offerNextForceLock() {
        while (forceLockOffer.get() == null && !forceLockQueue.isEmpty()) {
            ManagedVault next = forceLockQueue.poll();
            if (next.state() == VaultState.UNLOCKED) { // not locked meanwhile
                forceLockOffer.set(next);
            }
        }
    }

    private void lock(ManagedVault v, boolean force) {
        if (v == null || v.state() != VaultState.UNLOCKED) {
            return;
        }
        busy.set(true);
        background.run(() -> {
            service.lock(v, force);
            return null;
        }, ok -> {
            busy.set(false);
            notice.set("");
        }, failure -> {
            busy.set(false);
            if (failure instanceof VaultException ve && ve.problem() == Problem.DRIVE_BUSY) {
                forceLockOffer.set(v);
            } else {
                notice.set(messages.problem(failure));
            }
        });
    }

    /** Locks every vault (quit, tray); returns the names that stayed unlocked because files were open. */
    public List<String> lockAll(boolean force) {
        return service.lockAll(force).stream().map(v -> v.settings().name()).toList();
    }

    /**
     * Lock all as the person asks it (tray, menu): locks every unlocked vault in the background;
     * the notice names each vault that stayed unlocked and why, and each one with files open is
     * offered the forced lock a single lock offers, one after another. {@code someStayed} runs when
     * any stayed, so that a hidden window can be shown to say so.
     */
    public void lockAllOfferingForce(Runnable someStayed) {
        busy.set(true);
        background.run(() -> service.lockAllSayingWhy(false), stayed -> {
            busy.set(false);
            if (stayed.isEmpty()) {
                notice.set("");
                return;
            }
            notice.set(stayedUnlocked(stayed));
            stayed.forEach((v, why) -> {
                if (why.problem() == Problem.DRIVE_BUSY && !forceLockQueue.contains(v) && forceLockOffer.get() != v) {
                    forceLockQueue.add(v); // once: a second lock all while the questions are open adds no repeats
                }
            });
            someStayed.run();
            offerNextForceLock();
        }, failure -> {
            busy.set(false);
            notice.set(messages.problem(failure));
            someStayed.run();
        });
    }

    private String stayedUnlocked(Map<ManagedVault, VaultException> stayed) {
        List<String> each = new ArrayList<>();
        stayed.forEach((v, why) -> each.add(why.problem() == Problem.DRIVE_BUSY
                ? messages.get("main.lockAll.stayedBusy", v.settings().name())
                : messages.get("main.lockAll.stayedFailed", v.settings().name(), messages.problem(why))));
        return messages.get("main.lockAll.stayed", String.join("; ", each));
    }

    /** The state line of a vault in the list, e.g. "Unlocked at /home/a/Vaults/Taxes". */
    public String stateText(ManagedVault v) {
        return switch (v.state()) {
            case LOCKED -> messages.get("state.LOCKED");
            case UNLOCKING -> messages.get("state.UNLOCKING");
            case LOCKING -> messages.get("state.LOCKING");
            case UNLOCKED -> messages.get("state.UNLOCKED.at", v.drive().map(d -> d.location()).orElse(""));
            case ERROR -> messages.get("state.ERROR");
        };
    }

    /**
     * What the details pane says about the vault folder's file system while unlocked (core's storage
     * warnings under a heading); empty if there is nothing to say.
     */
    public String storeWarningsText(ManagedVault v) {
        java.util.List<String> warnings = v.storeWarnings();
        return warnings.isEmpty() ? "" : messages.get("main.storeWarnings") + "\n\u2022 " + String.join("\n\u2022 ", warnings);
    }

    /** The problem of a vault in ERROR, for the details pane. */
    public String problemText(ManagedVault v) {
        return v.problem().map(messages::problem).orElse("");
    }
}
