package dev.coffer.app.ui;

import com.sun.javafx.scene.input.DragboardHelper;
import com.sun.javafx.tk.TKClipboard;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.event.EventType;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.image.Image;
import javafx.scene.input.DataFormat;
import javafx.scene.input.DragEvent;
import javafx.scene.input.Dragboard;
import javafx.scene.input.TransferMode;
import javafx.util.Pair;

/**
 * Drag events carrying files, as the toolkit delivers them when a file manager drags files over a
 * node (TestFX cannot make Monocle start a drag of files, so the tests fire these at the node's
 * own handlers). The dragboard is JavaFX's own, over a clipboard in memory that offers what a file
 * manager offers (copy or link). Made on the FX thread.
 */
final class FileDrag {
    private FileDrag() {}

    static DragEvent event(Node target, EventType<DragEvent> type, Path... files) {
        Dragboard board = DragboardHelper.createDragboard(new MemoryClipboard());
        board.setContent(Map.of(DataFormat.FILES, List.of(files).stream().map(Path::toFile).toList()));
        Bounds b = target.localToScene(target.getBoundsInLocal());
        double x = b.getMinX() + b.getWidth() / 2;
        double y = b.getMinY() + b.getHeight() / 2;
        return new DragEvent(null, target, type, board, x, y, x, y, TransferMode.LINK, null, null, null);
    }

    /** The dragboard's storage: its content in a map, copy and link offered. */
    private static final class MemoryClipboard implements TKClipboard {
        private final Map<DataFormat, Object> content = new HashMap<>();
        private Image dragView;
        private double offsetX;
        private double offsetY;

        @Override
        @SuppressWarnings("removal") // the interface still names the security context
        public void setSecurityContext(java.security.AccessControlContext context) {
            // nothing is checked in memory
        }

        @Override
        public Set<DataFormat> getContentTypes() {
            return content.keySet();
        }

        @Override
        @SafeVarargs
        @SuppressWarnings("varargs")
        public final boolean putContent(Pair<DataFormat, Object>... pairs) {
            content.clear();
            for (Pair<DataFormat, Object> p : pairs) {
                content.put(p.getKey(), p.getValue());
            }
            return true;
        }

        @Override
        public Object getContent(DataFormat format) {
            return content.get(format);
        }

        @Override
        public boolean hasContent(DataFormat format) {
            return content.containsKey(format);
        }

        @Override
        public Set<TransferMode> getTransferModes() {
            return EnumSet.of(TransferMode.COPY, TransferMode.LINK);
        }

        @Override
        public void setDragView(Image image) {
            dragView = image;
        }

        @Override
        public void setDragViewOffsetX(double x) {
            offsetX = x;
        }

        @Override
        public void setDragViewOffsetY(double y) {
            offsetY = y;
        }

        @Override
        public Image getDragView() {
            return dragView;
        }

        @Override
        public double getDragViewOffsetX() {
            return offsetX;
        }

        @Override
        public double getDragViewOffsetY() {
            return offsetY;
        }
    }
}
