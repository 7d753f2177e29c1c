package dev.coffer.app.ui;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javafx.scene.image.Image;

/**
 * The application icon (the strongbox on a teal tile, {@code dev/coffer/app/icons}) as JavaFX
 * images: for window decorations and the header's logo. Loaded once per size.
 *
 * <p>Not responsible for the icon's design (its SVG source and the render script are beside it).
 */
final class AppIcons {
    private static final int[] WINDOW_SIZES = {16, 24, 32, 48, 64, 128, 256};
    private static final Map<Integer, Image> CACHE = new ConcurrentHashMap<>();

    private AppIcons() {}

    static Image image(int size) {
        return CACHE.computeIfAbsent(size, s -> new Image(AppIcons.class.getResource("/dev/coffer/app/icons/coffer-" + s
                + ".png").toExternalForm()));
    }

    static List<Image> windowIcons() {
        return java.util.Arrays.stream(WINDOW_SIZES).mapToObj(AppIcons::image).toList();
    }
}
