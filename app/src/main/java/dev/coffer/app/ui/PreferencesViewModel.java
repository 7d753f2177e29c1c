package dev.coffer.app.ui;

import dev.coffer.app.vaults.MountMethod;
import dev.coffer.app.vaults.Preferences;
import dev.coffer.app.vaults.Theme;
import dev.coffer.app.vaults.VaultService;
import java.io.IOException;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The preferences dialog: theme, start minimised, default mount method, WebDAV port, default
 * auto-lock minutes, language and debug logging, saved on {@link #save()}.
 *
 * <p>Not responsible for applying them (the app listens to the service and re-styles, re-logs).
 */
public final class PreferencesViewModel {
    private final VaultService service;
    private final Messages messages;
    private final ObjectProperty<Theme> theme = new SimpleObjectProperty<>();
    private final BooleanProperty startMinimised = new SimpleBooleanProperty();
    private final ObjectProperty<MountMethod> defaultMountMethod = new SimpleObjectProperty<>();
    private final IntegerProperty webDavPort = new SimpleIntegerProperty();
    private final IntegerProperty autoLockMinutesDefault = new SimpleIntegerProperty();
    private final StringProperty language = new SimpleStringProperty();
    private final BooleanProperty debugLogging = new SimpleBooleanProperty();
    private final StringProperty status = new SimpleStringProperty("");

    public PreferencesViewModel(VaultService service, Messages messages) {
        this.service = service;
        this.messages = messages;
        Preferences p = service.preferences();
        theme.set(p.theme());
        startMinimised.set(p.startMinimised());
        defaultMountMethod.set(p.defaultMountMethod());
        webDavPort.set(p.webDavPort());
        autoLockMinutesDefault.set(p.autoLockMinutesDefault());
        language.set(p.language());
        debugLogging.set(p.debugLogging());
    }

    public Messages messages() { return messages; }
    public ObjectProperty<Theme> theme() { return theme; }
    public BooleanProperty startMinimised() { return startMinimised; }
    public ObjectProperty<MountMethod> defaultMountMethod() { return defaultMountMethod; }
    public IntegerProperty webDavPort() { return webDavPort; }
    public IntegerProperty autoLockMinutesDefault() { return autoLockMinutesDefault; }
    /** A language tag ({@code en}, {@code de}) or empty for the system's. */
    public StringProperty language() { return language; }
    public BooleanProperty debugLogging() { return debugLogging; }
    public StringProperty status() { return status; }

    /** Saves; false (with the reason in {@link #status()}) if a value is out of range. */
    public boolean save() {
        try {
            service.updatePreferences(new Preferences(theme.get(), startMinimised.get(), defaultMountMethod.get(),
                    webDavPort.get(), autoLockMinutesDefault.get(), language.get(), debugLogging.get()));
            status.set("");
            return true;
        } catch (IllegalArgumentException e) {
            status.set(messages.get("prefs.invalid", e.getMessage()));
            return false;
        } catch (IOException e) {
            status.set(messages.problem(e));
            return false;
        }
    }
}
