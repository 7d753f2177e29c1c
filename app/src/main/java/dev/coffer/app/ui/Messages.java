package dev.coffer.app.ui;

import dev.coffer.app.vaults.Problem;
import dev.coffer.app.vaults.VaultException;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The UI's strings: the {@code messages} resource bundle (English, German) for one locale, with
 * {@link MessageFormat} arguments, and the sentence for each {@link Problem}.
 *
 * <p>Not responsible for choosing the locale (the preferences do).
 */
public final class Messages {
    static final String BUNDLE = "dev.coffer.app.ui.messages";

    private final ResourceBundle bundle;
    private final Locale locale;

    private Messages(ResourceBundle bundle, Locale locale) {
        this.bundle = bundle;
        this.locale = locale;
    }

    /** The strings for {@code locale} (English where a translation is missing). */
    public static Messages of(Locale locale) {
        return new Messages(ResourceBundle.getBundle(BUNDLE, locale, ResourceBundle.Control.getNoFallbackControl(
                ResourceBundle.Control.FORMAT_PROPERTIES)), locale);
    }

    /** From a language tag of the preferences (empty: the system's language). */
    public static Messages forLanguage(String languageTag) {
        return of(languageTag == null || languageTag.isEmpty() ? Locale.getDefault() : Locale.forLanguageTag(languageTag));
    }

    public Locale locale() {
        return locale;
    }

    public ResourceBundle bundle() {
        return bundle;
    }

    /** The string for {@code key}, formatted with {@code args}; a missing key shows itself so it is noticed. */
    public String get(String key, Object... args) {
        String pattern;
        try {
            pattern = bundle.getString(key);
        } catch (MissingResourceException e) {
            return "!" + key + "!";
        }
        return args.length == 0 ? pattern : new MessageFormat(pattern, locale).format(args);
    }

    /** What to tell the person about a failure: the problem's sentence, then its detail. */
    public String problem(Throwable failure) {
        if (failure instanceof VaultException ve) {
            String sentence = get("problem." + ve.problem().name());
            return ve.detail().isEmpty() || ve.problem() == Problem.WRONG_PASSPHRASE ? sentence : sentence + "\n" + ve.detail();
        }
        return get("problem.OTHER") + "\n" + (failure.getMessage() == null ? failure.getClass().getSimpleName()
                : failure.getMessage());
    }
}
