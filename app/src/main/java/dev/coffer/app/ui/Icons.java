package dev.coffer.app.ui;

import javafx.scene.Node;
import javafx.scene.layout.Region;
import javafx.scene.shape.SVGPath;

/**
 * The app's icons as SVG paths (24x24 grid, drawn for Coffer), coloured by CSS ({@code .icon}
 * takes the text colour, {@code .icon-accent} the accent), so they follow the theme. No image
 * files, no icon font.
 *
 * <p>Not responsible for layout beyond the icon's own size.
 */
public final class Icons {
    /** A closed padlock. */
    public static final String LOCK = "M7 10V7a5 5 0 0 1 10 0v3h1.5A1.5 1.5 0 0 1 20 11.5v9A1.5 1.5 0 0 1 18.5 22h-13A1.5 1.5 0 0 1 "
            + "4 20.5v-9A1.5 1.5 0 0 1 5.5 10H7zm2 0h6V7a3 3 0 0 0-6 0v3zm3 4.5a1.5 1.5 0 0 0-1 2.6V19h2v-1.9a1.5 1.5 0 0 0-1-2.6z";
    /** An open padlock. */
    public static final String UNLOCK = "M9 10h9.5a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 20.5v-9A1.5 1.5 "
            + "0 0 1 5.5 10H7V7a5 5 0 0 1 9.6-2l-1.8.9A3 3 0 0 0 9 7v3zm3 4.5a1.5 1.5 0 0 0-1 2.6V19h2v-1.9a1.5 1.5 0 0 0-1-2.6z";
    public static final String PLUS = "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z";
    /** A gear. */
    public static final String SETTINGS = "M10.3 2h3.4l.5 2.6 1.6.9 2.5-.9 1.7 2.9-2 1.7v1.8l2 1.7-1.7 2.9-2.5-.9-1.6.9-.5 2.6h-3.4l-.5-2.6"
            + "-1.6-.9-2.5.9-1.7-2.9 2-1.7V10.1l-2-1.7 1.7-2.9 2.5.9 1.6-.9zM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z";
    public static final String FOLDER = "M3 6.5A1.5 1.5 0 0 1 4.5 5H10l2 2h7.5A1.5 1.5 0 0 1 21 8.5v10a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 "
            + "1.5 0 0 1 3 18.5z";
    /** A drive. */
    public static final String DRIVE = "M5 4h14l2 9v5.5a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5V13zm-.2 10v4h14.4v-4zM16 15.2"
            + "a.9.9 0 1 0 0 1.8.9.9 0 0 0 0-1.8zM6.6 6l-1.3 6h13.4l-1.3-6z";
    /** An eye (show passphrase). */
    public static final String EYE = "M12 5c5 0 8.5 4.2 10 7-1.5 2.8-5 7-10 7S3.5 14.8 2 12c1.5-2.8 5-7 10-7zm0 3a4 4 0 1 0 0 8 4 4 0"
            + " 0 0 0-8zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z";
    public static final String WARNING = "M12 3l10 18H2zm-1 6v6h2V9zm0 8v2h2v-2z";
    public static final String KEY = "M14.5 3a6.5 6.5 0 1 1-2.1 12.65L10 18h-2v2H6v2H2v-4l6.35-6.35A6.5 6.5 0 0 1 14.5 3zm1.5 3.5a1.5"
            + " 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z";
    public static final String CHECK = "M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L20.1 8.4 18.7 7z";
    public static final String CLOUD = "M7 19a5 5 0 0 1-.9-9.9A6 6 0 0 1 17.6 8.1 4.5 4.5 0 0 1 17.5 19z";

    private Icons() {}

    /** An icon of {@code size} pixels with the style classes {@code icon} and {@code styleClass}. */
    public static Node of(String path, double size, String... styleClasses) {
        SVGPath svg = new SVGPath();
        svg.setContent(path);
        Region r = new Region();
        r.setShape(svg);
        r.setScaleShape(true);
        r.setMinSize(size, size);
        r.setPrefSize(size, size);
        r.setMaxSize(size, size);
        r.getStyleClass().add("icon");
        r.getStyleClass().addAll(styleClasses);
        return r;
    }
}
