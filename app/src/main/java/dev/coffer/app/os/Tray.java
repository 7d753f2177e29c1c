package dev.coffer.app.os;

import java.awt.AWTException;
import java.awt.GraphicsEnvironment;
import java.awt.Image;
import java.awt.MenuItem;
import java.awt.PopupMenu;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tray icon, where the desktop has a tray ({@link SystemTray#isSupported()}; many Linux
 * desktops and every headless session have none, and then {@link #install} says so by returning
 * empty, so the app keeps its window instead). The menu lists each vault (click: unlock or lock),
 * then Show, Lock all and Quit; {@link #update} rebuilds it when vaults change. Menu actions run on
 * AWT's thread: the callbacks hand them to the UI thread themselves.
 *
 * <p>Not responsible for what the actions do.
 */
public final class Tray {
    private static final Logger LOG = LoggerFactory.getLogger(Tray.class);

    /** One vault in the tray menu: its label (name and state) and what a click does. */
    public record Entry(String label, Runnable action) {}

    /** The tray menu's fixed items' labels and actions. */
    public record Actions(String show, Runnable onShow, String lockAll, Runnable onLockAll, String quit, Runnable onQuit) {}

    private final TrayIcon icon;
    private final Actions actions;
    private int noticesShown;

    private Tray(TrayIcon icon, Actions actions) {
        this.icon = icon;
        this.actions = actions;
    }

    /** True if this session has a tray to put an icon in. */
    public static boolean supported() {
        return !GraphicsEnvironment.isHeadless() && SystemTray.isSupported();
    }

    /** Adds the icon; empty if there is no tray (the caller keeps the window open instead). */
    public static Optional<Tray> install(String tooltip, Actions actions) {
        if (!supported()) {
            LOG.info("no system tray on this desktop: closing the window asks to lock the vaults instead");
            return Optional.empty();
        }
        TrayIcon icon = new TrayIcon(drawIcon(), tooltip);
        icon.setImageAutoSize(true);
        icon.addActionListener(e -> actions.onShow().run());
        Tray tray = new Tray(icon, actions);
        tray.update(List.of());
        try {
            SystemTray.getSystemTray().add(icon);
            return Optional.of(tray);
        } catch (AWTException e) {
            LOG.info("the system tray refused the icon: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Rebuilds the menu: one item per vault, then the fixed ones. */
    public void update(List<Entry> vaults) {
        PopupMenu menu = new PopupMenu();
        for (Entry e : vaults) {
            MenuItem item = new MenuItem(e.label());
            item.addActionListener(a -> e.action().run());
            menu.add(item);
        }
        if (!vaults.isEmpty()) {
            menu.addSeparator();
        }
        menu.add(item(actions.show(), actions.onShow()));
        menu.add(item(actions.lockAll(), actions.onLockAll()));
        menu.addSeparator();
        menu.add(item(actions.quit(), actions.onQuit()));
        icon.setPopupMenu(menu);
    }

    /** A balloon message (the "still running in the tray" notice). */
    public void notify(String title, String text) {
        noticesShown++;
        icon.displayMessage(title, text, TrayIcon.MessageType.INFO);
    }

    /** How many notices {@link #notify} has shown (the app shows its "still running" one once per run). */
    public int noticesShown() {
        return noticesShown;
    }

    /** The icon in the tray (its menu is what the person clicks). */
    public TrayIcon icon() {
        return icon;
    }

    public void remove() {
        SystemTray.getSystemTray().remove(icon);
    }

    private static MenuItem item(String label, Runnable action) {
        MenuItem item = new MenuItem(label);
        item.addActionListener(a -> action.run());
        return item;
    }

    /** The application icon at 64 px (the tray scales it). */
    static Image drawIcon() {
        try (var in = Tray.class.getResourceAsStream("/dev/coffer/app/icons/coffer-64.png")) {
            if (in == null) {
                throw new IllegalStateException("the application icon is missing from the jar");
            }
            return javax.imageio.ImageIO.read(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("the application icon cannot be read", e);
        }
    }
}
