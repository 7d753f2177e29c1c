package dev.coffer.app.ui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.text.Text;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Helpers for the GUI tests: run on the FX thread and wait, wait for a condition, collect the texts a
 * scene shows, snapshot a scene to PNG.
 */
final class Fx {
    private Fx() {}

    static <T> T call(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(c));
    }

    static void run(Runnable r) throws Exception {
        call(() -> {
            r.run();
            return null;
        });
    }

    /** Waits (FX events flushed) until {@code condition} holds, failing with {@code what} after {@code seconds}. */
    static void await(String what, int seconds, BooleanSupplier condition) {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> {
                WaitForAsyncUtils.waitForFxEvents();
                return condition.getAsBoolean();
            });
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out after " + seconds + " s waiting for: " + what, e);
        }
    }

    /** The text of every labelled control, text node and text input under {@code node}, stripped; on the FX thread. */
    static List<String> textsShown(Node node) {
        List<String> texts = new ArrayList<>();
        if (node instanceof Labeled l && l.getText() != null) {
            texts.add(l.getText().strip());
        }
        if (node instanceof Text x && x.getText() != null) {
            texts.add(x.getText().strip());
        }
        if (node instanceof TextInputControl i && i.getText() != null) {
            texts.add(i.getText().strip());
        }
        if (node instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> texts.addAll(textsShown(c)));
        }
        return texts;
    }

    /** Renders {@code scene} and writes it as a PNG. */
    static void snapshot(Scene scene, Path png) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        WritableImage image = call(() -> scene.snapshot(null));
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        Files.createDirectories(png.getParent());
        if (!ImageIO.write(out, "png", png.toFile())) {
            throw new IOException("no PNG writer");
        }
    }
}
