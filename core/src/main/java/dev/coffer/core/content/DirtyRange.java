package dev.coffer.core.content;

/**
 * Which units of the new layout a size change or write must (re)encrypt, and which single unit only
 * needs its tag recomputed because it stops or starts being the last (spec 5.2, 5.3). Pure maths.
 *
 * @param first first unit to write (inclusive); {@code first > last} means none
 * @param last  last unit to write (inclusive)
 * @param retag unit whose extent is unchanged but whose last flag changes, or -1
 */
record DirtyRange(long first, long last, long retag) {

    static DirtyRange of(SectorLayout layout, long oldSize, long newSize, Overlay data, boolean rekey) {
        long newCount = layout.unitCount(newSize);
        if (rekey || oldSize == 0) {
            return new DirtyRange(0, newCount - 1, -1);
        }
        long first = Long.MAX_VALUE;
        long last = -1;
        if (data.length() > 0) {
            first = layout.unitOf(data.position(), newSize);
            last = layout.unitOf(data.position() + data.length() - 1, newSize);
        }
        long retag = -1;
        if (newSize != oldSize) {
            long oldLast = layout.unitCount(oldSize) - 1;
            long newLast = newCount - 1;
            // Units before k are full sectors in both layouts and last in neither: untouched.
            long k = Math.min(oldLast, newLast);
            boolean extentChanged = layout.unitLength(k, oldSize) != layout.unitLength(k, newSize);
            if (extentChanged) {
                first = Math.min(first, k);
                last = Math.max(last, newLast);
            } else {
                if (newLast > k) {
                    first = Math.min(first, k + 1);
                    last = Math.max(last, newLast);
                }
                boolean flagChanges = (k == oldLast) != (k == newLast);
                if (layout.overhead() > 0 && flagChanges && !(first <= k && k <= last)) {
                    retag = k;
                }
            }
        }
        if (last < 0) {
            return new DirtyRange(0, -1, retag);
        }
        return new DirtyRange(first, Math.min(last, newCount - 1), retag);
    }

    boolean isEmpty() {
        return first > last;
    }
}
