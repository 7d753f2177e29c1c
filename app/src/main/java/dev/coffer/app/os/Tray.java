package dev.coffer.app.os;

import java.awt.AWTException;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GraphicsEnvironment;
import java.awt.Image;
import java.awt.MenuItem;
import java.awt.PopupMenu;
import java.awt.RenderingHints;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.awt.image.BufferedImage;
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
        icon.displayMessage(title, text, TrayIcon.MessageType.INFO);
    }

    public void remove() {
        SystemTray.getSystemTray().remove(icon);
    }

    private static MenuItem item(String label, Runnable action) {
        MenuItem item = new MenuItem(label);
        item.addActionListener(a -> action.run());
        return item;
    }

    /** The app mark drawn at 64 px: the accent square with a white padlock. */
    static Image drawIcon() {
        BufferedImage img = new BufferedImage(64, 64, BufferedImage.TYPE_INT_ARGB);
        java.awt.Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(new Color(0x3b5bdb));
            g.fillRoundRect(2, 2, 60, 60, 16, 16);
            g.setColor(Color.WHITE);
            g.setStroke(new BasicStroke(6f));
            g.drawArc(20, 12, 24, 26, 0, 180);
            g.fillRoundRect(14, 28, 36, 26, 6, 6);
        } finally {
            g.dispose();
        }
        return img;
    }
}
