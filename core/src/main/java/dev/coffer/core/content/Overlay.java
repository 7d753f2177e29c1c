package dev.coffer.core.content;

/** The bytes a write puts at a cleartext position, laid over the units it touches. */
record Overlay(long position, byte[] data, int offset, int length) {
    static final Overlay NONE = new Overlay(0, new byte[0], 0, 0);

    /** True if this write covers the whole cleartext range {@code [start, end)}. */
    boolean covers(long start, long end) {
        return length > 0 && position <= start && end <= position + length;
    }

    /** The last unit of the new layout that this write covers entirely. */
    long lastFullyCoveredUnit(SectorLayout layout, long newSize) {
        long end = position + length;
        long u = layout.unitOf(end - 1, newSize);
        long start = SectorLayout.unitStart(u);
        return start + layout.unitLength(u, newSize) <= end ? u : u - 1;
    }

    /** Copies the part of this write that falls in the unit {@code [unitStart, unitStart+unitLen)} into {@code plain}. */
    void copyInto(long unitStart, int unitLen, byte[] plain) {
        long from = Math.max(position, unitStart);
        long to = Math.min(position + length, unitStart + unitLen);
        if (from < to) {
            System.arraycopy(data, offset + (int) (from - position), plain, (int) (from - unitStart), (int) (to - from));
        }
    }
}
